// The frameworks the runner knows, and how `--framework name@spec` picks one. Adapters load lazily, so a framework
// that fails to import breaks only its own cells.
import type { Adapter } from '@approval-conformance/core';
import { UsageError } from './usage-error.js';

const FRAMEWORKS: Readonly<Record<string, () => Promise<Adapter>>> = {
  reference: async () => (await import('@approval-conformance/adapter-reference')).referenceAdapter,
};

/** Frameworks planned but not wired yet, so the error can say so rather than "unknown". */
const PLANNED = ['langgraph', 'ai', '@openai/agents', '@mastra/core'];

export const FRAMEWORK_NAMES = Object.keys(FRAMEWORKS);

export interface FrameworkSpec {
  readonly name: string;
  /** The version asked for, if any. */
  readonly version: string | undefined;
}

export function parseFrameworkSpec(text: string): FrameworkSpec {
  const at = text.lastIndexOf('@');
  const [name, version] = at > 0 ? [text.slice(0, at), text.slice(at + 1)] : [text, undefined];
  if (name === '' || version === '') throw new UsageError(`--framework takes NAME or NAME@VERSION, got '${text}'.`);
  return { name, version };
}

export async function loadAdapter(spec: FrameworkSpec): Promise<Adapter> {
  const load = FRAMEWORKS[spec.name];
  if (!load) {
    const planned = PLANNED.includes(spec.name) ? ` ${spec.name} is planned but has no adapter yet.` : '';
    throw new UsageError(`unknown framework '${spec.name}'.${planned} Frameworks: ${FRAMEWORK_NAMES.join(', ')}.`);
  }
  const adapter = await load();
  if (spec.version !== undefined && spec.version !== adapter.version && spec.version !== 'latest') {
    throw new UsageError(
      `${spec.name} is only available at version ${adapter.version} (it is built in), not '${spec.version}'.`,
    );
  }
  return adapter;
}
