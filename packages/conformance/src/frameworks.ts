// The frameworks the runner knows, and how `--framework name@spec` picks one. Adapters load lazily, so a framework
// that fails to import breaks only its own cells.
import type { Adapter } from '@approval-conformance/core';
import { UsageError } from './usage-error.js';

const FRAMEWORKS: Readonly<Record<string, (version: string | undefined) => Promise<Adapter>>> = {
  reference: async (version) => {
    const { referenceAdapter } = await import('@approval-conformance/adapter-reference');
    if (version !== undefined && version !== 'latest' && version !== referenceAdapter.version) {
      throw new UsageError(
        `reference is only available at version ${referenceAdapter.version} (it is built in), not '${version}'.`,
      );
    }
    return referenceAdapter;
  },
  langgraph: async (version) => {
    const { langgraphAdapter, pinnedLib, PINNED_VERSIONS } = await import('@approval-conformance/adapter-langgraph');
    const pinned = Object.keys(PINNED_VERSIONS);
    const chosen = version === undefined || version === 'latest' ? pinned[0]! : version;
    const line = PINNED_VERSIONS[chosen];
    if (line === undefined) {
      throw new UsageError(
        `langgraph@${version} is not installed: the versions pinned in the workspace are ${pinned.join(', ')} ` +
          `(installing other versions on demand is not built yet).`,
      );
    }
    return langgraphAdapter(await pinnedLib(line));
  },
};

/** Frameworks planned but not wired yet, so the error can say so rather than "unknown". */
const PLANNED = ['ai', '@openai/agents', '@mastra/core'];

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
  return load(spec.version);
}
