// One installed Mastra: the `@mastra/core` modules the adapter drives (agent, mastra, tools, workflows, storage), the
// matching `@mastra/libsql`, the zod its tools declare their input with, and the version. The adapter reads these by
// feature detection, never by version number, so one adapter serves every release.
import { optionalPackage } from '@approval-conformance/core/kit';

// No network: Mastra's telemetry (PostHog, 1.x) stays off in every process that loads a version.
process.env['MASTRA_TELEMETRY_DISABLED'] ??= '1';

/** A module namespace, loosely typed: what is in it depends on the version. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Module = Record<string, any>;

export interface MastraLib {
  readonly version: string;
  /** Where the version is installed (a pin's folder, a cache folder): its packages resolve from here. */
  readonly dir?: string;
  readonly agent: Module;
  readonly mastra: Module;
  readonly tools: Module;
  readonly workflows: Module;
  readonly storage: Module;
  readonly libsql: Module;
  readonly zod: Module;
}

export type PinnedLine = '1.71' | '1.0';

/** Each pin package: a private workspace package, a devDependency, never published. */
const PIN_PACKAGES = {
  '1.71': '@approval-conformance/mastra-pin-1.71',
  '1.0': '@approval-conformance/mastra-pin-1.0',
} as const satisfies Record<PinnedLine, string>;

// The literal specifiers stay, so TypeScript checks each pin's types.
const importPin = (line: PinnedLine) =>
  line === '1.71' ? import('@approval-conformance/mastra-pin-1.71') : import('@approval-conformance/mastra-pin-1.0');

export const libOf = (m: MastraLib): MastraLib => ({
  version: m.version,
  agent: m.agent,
  mastra: m.mastra,
  tools: m.tools,
  workflows: m.workflows,
  storage: m.storage,
  libsql: m.libsql,
  zod: m.zod,
  ...(m.dir ? { dir: m.dir } : {}),
});

/** The versions pinned in the workspace for the tests. Only in the workspace (see below). */
export async function pinnedLib(line: PinnedLine): Promise<MastraLib> {
  return libOf(await importPin(line));
}

/**
 * The pinned version when its pin package is installed (in the workspace), else undefined: an installed suite has
 * no pins, and installs the same version on demand instead. A pin that is there but fails to load is an error.
 */
export async function pinnedLibIfPresent(line: PinnedLine): Promise<MastraLib | undefined> {
  const pin = await optionalPackage(PIN_PACKAGES[line], () => importPin(line));
  return pin === undefined ? undefined : libOf(pin);
}

/** The pinned versions, newest first: `mastra@VERSION` loads one of these without installing anything. */
export const PINNED_VERSIONS: Readonly<Record<string, PinnedLine>> = { '1.71.0': '1.71', '1.0.4': '1.0' };
