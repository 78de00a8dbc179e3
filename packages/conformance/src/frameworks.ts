// The frameworks the runner knows, and how `--framework name@spec` picks one. Adapters load lazily, so a framework
// that fails to import breaks only its own cells.
import type { Adapter } from '@approval-conformance/core';
import { RunFailure } from './run-failure.js';
import { UsageError } from './usage-error.js';

type Load = (version: string | undefined, log: (line: string) => void) => Promise<Adapter>;

const FRAMEWORKS: Readonly<Record<string, Load>> = {
  reference: async (version) => {
    const { referenceAdapter } = await import('@approval-conformance/adapter-reference');
    if (version !== undefined && version !== 'latest' && version !== referenceAdapter.version) {
      throw new UsageError(
        `reference is only available at version ${referenceAdapter.version} (it is built in), not '${version}'.`,
      );
    }
    return referenceAdapter;
  },
  langgraph: async (version, log) => {
    const lg = await import('@approval-conformance/adapter-langgraph');
    const pinned = Object.keys(lg.PINNED_VERSIONS);
    const chosen = version === undefined || version === 'latest' ? pinned[0]! : version;
    const line = lg.PINNED_VERSIONS[chosen];
    if (line !== undefined) return lg.langgraphAdapter(await lg.pinnedLib(line));
    // Any other version: installed once into the cache, with scripts disabled.
    try {
      return await lg.langgraphAdapter(await lg.installedLib(chosen, log));
    } catch (error) {
      if (!(error instanceof lg.InstallError)) throw error;
      const message = error.message;
      if (/not a version|not published/.test(message)) {
        throw new UsageError(`${message}. Pinned in the workspace: ${pinned.join(', ')}; any published version installs.`);
      }
      throw new RunFailure(`could not install langgraph@${chosen}: ${message}`);
    }
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

export async function loadAdapter(spec: FrameworkSpec, log: (line: string) => void = () => {}): Promise<Adapter> {
  const load = FRAMEWORKS[spec.name];
  if (!load) {
    const planned = PLANNED.includes(spec.name) ? ` ${spec.name} is planned but has no adapter yet.` : '';
    throw new UsageError(`unknown framework '${spec.name}'.${planned} Frameworks: ${FRAMEWORK_NAMES.join(', ')}.`);
  }
  return load(spec.version, log);
}
