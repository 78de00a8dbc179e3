// The frameworks the runner knows, and how `--framework name@spec` picks one. Adapters load lazily, so a framework
// that fails to import breaks only its own cells.
import { InstallError, resolveVersion, type Adapter } from '@approval-conformance/core';
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
    const chosen = await choose('langgraph', '@langchain/langgraph', version, pinned, log);
    const line = lg.PINNED_VERSIONS[chosen];
    if (line !== undefined) return lg.langgraphAdapter(await lg.pinnedLib(line));
    // Any other version: installed once into the cache, with scripts disabled.
    return lg.langgraphAdapter(await installing('langgraph', chosen, pinned, () => lg.installedLib(chosen, log)));
  },
  ai: async (version, log) => {
    const sdk = await import('@approval-conformance/adapter-ai-sdk');
    const pinned = Object.keys(sdk.PINNED_VERSIONS);
    const chosen = await choose('ai', 'ai', version, pinned, log);
    const line = sdk.PINNED_VERSIONS[chosen];
    if (line !== undefined) return sdk.aiSdkAdapter(await sdk.pinnedLib(line));
    return sdk.aiSdkAdapter(await installing('ai', chosen, pinned, () => sdk.installedLib(chosen, log)));
  },
};

/**
 * The exact version to run: the newest pin when none is asked for, a pin or exact version as given, or the newest
 * published version in a range (`ai@6` is the last 6.x).
 */
async function choose(
  name: string,
  npmName: string,
  version: string | undefined,
  pinned: readonly string[],
  log: (line: string) => void,
): Promise<string> {
  if (version === undefined || version === 'latest') return pinned[0]!;
  if (pinned.includes(version)) return version;
  try {
    const resolved = await resolveVersion(npmName, version, pinned[0]);
    if (resolved !== version) log(`${name}@${version} is ${name}@${resolved}`);
    return resolved;
  } catch (error) {
    if (!(error instanceof InstallError)) throw error;
    throw new UsageError(`${error.message}. Pinned in the workspace: ${pinned.join(', ')}.`);
  }
}

/** Install a version, turning the installer's errors into the runner's: bad input is a usage error. */
async function installing<T>(name: string, version: string, pinned: readonly string[], install: () => Promise<T>) {
  try {
    return await install();
  } catch (error) {
    if (!(error instanceof InstallError)) throw error;
    if (/not a version|not published|older than/.test(error.message)) {
      throw new UsageError(`${error.message}. Pinned in the workspace: ${pinned.join(', ')}; other published versions install.`);
    }
    throw new RunFailure(`could not install ${name}@${version}: ${error.message}`);
  }
}

/** Frameworks planned but not wired yet, so the error can say so rather than "unknown". */
const PLANNED = ['@openai/agents', '@mastra/core'];

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
