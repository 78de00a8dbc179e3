// One installed OpenAI Agents JS: its `@openai/agents` module, its `@openai/agents/testing` module where the version
// has one (the scripted model), and its version. The adapter reads these by feature detection, never by version
// number, so one adapter serves every release.
import { optionalPackage } from '@approval-conformance/core/kit';

/** A module namespace, loosely typed: what is in it depends on the version. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Module = Record<string, any>;

export interface AgentsLib {
  readonly version: string;
  /** Where the version is installed (a pin's folder, a cache folder): its packages resolve from here. */
  readonly dir?: string;
  readonly agents: Module;
  /** `@openai/agents/testing` (ScriptedModel, 0.16+), or undefined where the version has none. */
  readonly testing: Module | undefined;
}

export type PinnedLine = '0.20' | '0.14';

/** Each pin package: a private workspace package, a devDependency, never published. */
const PIN_PACKAGES = {
  '0.20': '@approval-conformance/openai-agents-pin-0.20',
  '0.14': '@approval-conformance/openai-agents-pin-0.14',
} as const satisfies Record<PinnedLine, string>;

// The literal specifiers stay, so TypeScript checks each pin's types.
const importPin = (line: PinnedLine) =>
  line === '0.20' ? import('@approval-conformance/openai-agents-pin-0.20') : import('@approval-conformance/openai-agents-pin-0.14');

const libOf = (pin: Awaited<ReturnType<typeof importPin>>): AgentsLib => ({
  version: pin.version,
  agents: pin.agents,
  testing: pin.testing,
  dir: pin.dir,
});

/** The versions pinned in the workspace for the tests. Only in the workspace (see below). */
export async function pinnedLib(line: PinnedLine): Promise<AgentsLib> {
  return libOf(await importPin(line));
}

/**
 * The pinned version when its pin package is installed (in the workspace), else undefined: an installed suite has
 * no pins, and installs the same version on demand instead. A pin that is there but fails to load is an error.
 */
export async function pinnedLibIfPresent(line: PinnedLine): Promise<AgentsLib | undefined> {
  const pin = await optionalPackage(PIN_PACKAGES[line], () => importPin(line));
  return pin === undefined ? undefined : libOf(pin);
}

/** The pinned versions, newest first: `openai-agents@VERSION` loads one of these without installing anything. */
export const PINNED_VERSIONS: Readonly<Record<string, PinnedLine>> = { '0.20.0': '0.20', '0.14.3': '0.14' };
