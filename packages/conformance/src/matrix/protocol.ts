// What the runner and a worker process say to each other. One worker runs one framework version's cells.
import type { ExploreOptions, PropertyId, ScenarioId, WiringInfo } from '@approval-conformance/core';
import type { ResultCell } from '../results.js';

/** What to run: one framework version, narrowed by the run's filters, minus the units already done. */
export interface WorkerTask {
  readonly framework: string;
  readonly version: string;
  /** A local build's folder, for `NAME@file:PATH`. */
  readonly source?: string;
  readonly filters: {
    readonly wirings?: readonly string[];
    readonly stores?: readonly string[];
    readonly scenarios: readonly ScenarioId[];
    readonly properties?: readonly PropertyId[];
  };
  readonly options: ExploreOptions;
  /** Unit keys (`wiring/store/scenario`) to leave out: finished before, or given up on. */
  readonly skip: readonly string[];
  /** Only these unit keys, where given (an audit's chosen cells). */
  readonly only?: readonly string[];
  /** Report a wiring or store filter this version lacks as bad input, rather than run nothing. */
  readonly strictFilters: boolean;
  /** Only say what the version's units are (`plan`), then stop: the runner is splitting the matrix into shards. */
  readonly planOnly?: boolean;
  /** Where to save each exhaustive unit's checkpoints (checkpoints.ts), and whether to go on from those there. */
  readonly checkpoints?: { readonly dir: string; readonly resume: boolean };
  /** A third party's framework: the adapter it came from (`--adapter`, as an absolute path), which the worker loads. */
  readonly adapters?: readonly string[];
}

/** One exploration: a scenario on a wiring and store, judged on its properties. */
export interface Unit {
  readonly key: string;
  readonly wiring: string;
  readonly store: string;
  readonly scenario: ScenarioId;
  readonly properties: readonly PropertyId[];
  /** The adapter says the version cannot run it (its cells will read `not-applicable`, with the reason). */
  readonly notApplicable?: true;
}

export const unitKey = (u: Pick<Unit, 'wiring' | 'store' | 'scenario'>) => `${u.wiring}/${u.store}/${u.scenario}`;

export type WorkerMessage =
  | { readonly type: 'log'; readonly line: string }
  /** The version would not install or import; nothing of it can run. */
  | { readonly type: 'load-failed'; readonly message: string }
  /** A filter names something this version does not have. */
  | { readonly type: 'bad-filter'; readonly message: string }
  | {
      readonly type: 'plan';
      readonly packages: Readonly<Record<string, string>>;
      readonly nodeEngines?: Readonly<Record<string, string>>;
      /** The version's wirings, as the reports describe them. */
      readonly wirings: readonly WiringInfo[];
      readonly units: readonly Unit[];
    }
  | { readonly type: 'start'; readonly key: string }
  | { readonly type: 'unit'; readonly key: string; readonly cells: readonly ResultCell[] }
  | { readonly type: 'done' };
