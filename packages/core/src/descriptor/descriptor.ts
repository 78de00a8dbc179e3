import type { Adapter } from '../adapter.js';
import type { FrameworkRepro } from './repro.js';

/**
 * The version of this contract, which a descriptor declares (`contractVersion`). It moves only when a descriptor
 * written for the old one would be misread; the runner refuses a descriptor of another version, naming both.
 */
export const CONTRACT_VERSION = 1;

/** Where a descriptor says what it is doing (an install, a version it could not take from the workspace). */
export type Log = (line: string) => void;

/** One framework version, loaded. */
export interface LoadedVersion {
  readonly adapter: Adapter;
  /** The exact versions of the framework's packages and peers, as loaded (`loadedPackages`). */
  readonly packages: Readonly<Record<string, string>>;
  /** The Node range the main package declares, by package, when this Node is outside of it (it runs anyway). */
  readonly nodeEngines?: Readonly<Record<string, string>>;
}

/**
 * A framework as the runner knows it. An adapter package exports one as `descriptor`, from its `./descriptor` entry
 * when its package.json exports one (keep that entry cheap: import the framework in `load` and `shape`, not at the
 * top), else from its main entry.
 */
export interface FrameworkDescriptor {
  /** `CONTRACT_VERSION` as the adapter was written against it. */
  readonly contractVersion: number;
  /** `--framework NAME`: lowercase letters, digits and dashes (`langgraph-server`). */
  readonly name: string;
  /** The npm package whose releases are the framework's versions; none for a runtime with one built-in version. */
  readonly npm?: string;
  /** Versions that load without installing anything, newest first (a built-in runtime: its one version). */
  readonly pinned: readonly string[];
  /** The first version the adapter drives. */
  readonly oldest: string;
  /** Its releases, when they are not the registry's list for `npm` (some releases are published above `latest`). */
  listReleases?(): Promise<string[]>;
  /** The default matrix's versions, out of the releases: where a verdict changes, and the newest. */
  defaults(releases: readonly string[]): string[];
  /**
   * What the default versions run only on the newest of them: the guard's wirings (`guarded-*`), whose verdicts are
   * the same on every version, and stores that duplicate another's verdicts. `--wiring`, `--store` or
   * `NAME@VERSION` runs them anywhere.
   */
  readonly newestOnly?: { readonly guarded?: boolean; readonly stores?: readonly string[] };
  /**
   * Release lines judged apart, where one framework name covers packages that do not share code (MCP's sdk 1.x and
   * its server 2.x): a version's line. The newest default version of each line is then a newest, for `newestOnly` and
   * the scenarios that say `newestOnly`. One line when absent.
   */
  line?(version: string): string;
  /** The wirings the default matrix runs, where it cannot run them all; `--wiring` naming the others runs them. */
  readonly defaultWirings?: readonly string[];
  /** Every wiring and store the adapter has in some version: what `--wiring` and `--store` may name. */
  shape(): Promise<{ readonly wirings: readonly string[]; readonly stores: readonly string[] }>;
  /**
   * One version, installed (the kit's `installIsolated`) or taken from where it is pinned. `source` is a local build's
   * folder (`NAME@file:PATH`), for frameworks with a `localName`. Throw the kit's `InstallError` when an install fails
   * and `AdapterInputError` when the version asked for cannot be had: the runner says which.
   */
  load(version: string, log: Log, source?: string): Promise<LoadedVersion>;
  /** The npm name a local build's package.json must have, for frameworks that take `NAME@file:PATH`. */
  readonly localName?: string;
  /**
   * Every cell needs this server, whatever its store (DBOS keeps everything in PostgreSQL): the runner gives the
   * framework's workers one in APPROVAL_CONFORMANCE_POSTGRES (the user's `--postgres`, or in the suite's repository the
   * throwaway one its tests use), and names how to get one when none can be had.
   */
  readonly server?: 'postgres';
  /** Left out of the default matrix (its verdicts are published apart); naming it runs it. */
  readonly notInMatrix?: true;
  /** How a failing cell becomes a standalone reproduction (`repro`); without it, `repro` says none is written. */
  readonly repro?: FrameworkRepro;
  /**
   * How much more often `audit` picks this framework's cells than another's (default 1): more where the adapter's
   * declared accesses are the hardest to get right.
   */
  readonly auditWeight?: number;
}

/**
 * What the user asked cannot be had (a version that is not there, a build the framework does not take): the runner
 * reports it as bad input (exit 2), with the message as given.
 */
export class AdapterInputError extends Error {
  override readonly name = 'AdapterInputError';
}
