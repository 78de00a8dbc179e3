// The runner's side of the workers: one child process per framework version, at most `jobs` at a time. A unit that
// runs past the timeout is killed and becomes `timeout`; a worker that dies takes only its current unit with it
// (`error`); a version that will not install or import becomes `error` cells with the reason. The run goes on.
import { fork, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { SCENARIOS, WORKER_TAG_ENV, type ExploreOptions, type PropertyId, type ScenarioId, type Verdict } from '@approval-conformance/core';
import { unitProperties } from './units.js';
import { cellId, type ResultCell } from '../results.js';
import { UsageError } from '../usage-error.js';
import { checkpointFile } from './checkpoints.js';
import { dropLeftoverSchemas, newWorkerTag, workerTmp } from './leftovers.js';
import { lostReason, STDERR_KEPT } from './lost.js';
import { adapterOf, frameworks } from '../registry.js';
import { serverEnv } from '../server.js';
import type { Unit, WorkerMessage, WorkerTask } from './protocol.js';

export interface Target {
  readonly framework: string;
  readonly version: string;
  /** What the user asked for, for the report: `ai@6`. */
  readonly spec: string;
  /** A local build's folder (`ai@file:PATH`). */
  readonly source?: string;
  /** The wirings, stores and scenarios this version runs, narrower than the run's filters (a framework's default matrix). */
  readonly only?: Partial<Pick<WorkerTask['filters'], 'wirings' | 'stores' | 'scenarios'>>;
  /** Only these units (`wiring/store/scenario`), where given: an audit's chosen cells. */
  readonly units?: readonly string[];
}

export interface PoolEvents {
  /** A version's plan is known: its packages and the units it has left to run. */
  plan(target: Target, loaded: Pick<Extract<WorkerMessage, { type: 'plan' }>, 'packages' | 'nodeEngines' | 'wirings' | 'units'>, units: readonly Unit[]): void;
  start(target: Target, unit: Unit): void;
  /** Cells are final: write them down now. */
  cells(target: Target, cells: readonly ResultCell[]): Promise<void>;
  /** The version could not be loaded; its cells are errors. */
  failed(target: Target, reason: string): void;
  log(target: Target, line: string): void;
}

export interface PoolOptions {
  readonly jobs: number;
  /** Milliseconds one unit may take before its worker is killed; undefined for no limit. */
  readonly timeoutMs: number | undefined;
  readonly filters: WorkerTask['filters'];
  readonly options: ExploreOptions;
  /** Unit keys already finished, per target (`framework@version`): a resumed run skips them. */
  readonly done: ReadonlyMap<string, ReadonlySet<string>>;
  /** A filter the version lacks is bad input (a one-version run), not just nothing to run (a matrix). */
  readonly strictFilters: boolean;
  /** Where workers keep long units' checkpoints, and whether they go on from them (a resumed run). */
  readonly checkpoints?: WorkerTask['checkpoints'];
}

/**
 * How long installing and importing a version may take: the unit's limit, but never under five minutes, so that a
 * short --timeout meant for units does not fail a version that is slow to load on a busy machine, and a stalled
 * install still cannot hang the run.
 */
export const loadLimitMs = (timeoutMs: number | undefined) => (timeoutMs === undefined ? undefined : Math.max(timeoutMs, 300_000));

/** How to start a worker: from TypeScript source through tsx, or the built JavaScript. */
function workerCommand(): { file: string; execArgv: string[] } {
  const here = fileURLToPath(import.meta.url);
  if (here.endsWith('.ts')) {
    const tsx = createRequire(import.meta.url).resolve('tsx');
    return {
      file: here.replace(/pool\.ts$/, 'worker.ts'),
      execArgv: ['--import', tsx, '--conditions=@approval-conformance/source'],
    };
  }
  return { file: here.replace(/pool\.js$/, 'worker.js'), execArgv: [] };
}

/** Cells for a unit that did not finish. */
export function unfinishedCells(target: Target, unit: Pick<Unit, 'wiring' | 'store' | 'scenario' | 'properties'>, verdict: Verdict, reason: string, mode: ExploreOptions['mode']): ResultCell[] {
  const base = { framework: target.framework, version: target.version, wiring: unit.wiring, store: unit.store, scenario: unit.scenario };
  return unit.properties.map((property) => ({
    id: cellId({ ...base, property }),
    ...base,
    property,
    verdict,
    mode: mode ?? 'exhaustive',
    exhaustive: false,
    schedules: 0,
    reason,
  }));
}

/** Error cells for a version that never loaded: one per scenario and property, on every wiring and store (`*`). */
export function loadFailedCells(target: Target, filters: WorkerTask['filters'], reason: string, mode: ExploreOptions['mode']) {
  return filters.scenarios.flatMap((scenario: ScenarioId) => {
    const properties = unitProperties(scenario, filters);
    return unfinishedCells(target, { wiring: '*', store: '*', scenario, properties }, 'error', reason, mode);
  });
}

/** What a worker is sent: the target, the run's filters and options, the units to leave out. */
const taskFor = (target: Target, pool: Omit<PoolOptions, 'done'>, skip: readonly string[], planOnly = false): WorkerTask => ({
  framework: target.framework,
  version: target.version,
  ...(target.source === undefined ? {} : { source: target.source }),
  filters: { ...pool.filters, ...target.only },
  options: pool.options,
  skip: [...skip],
  ...(target.units ? { only: target.units } : {}),
  strictFilters: pool.strictFilters,
  ...(planOnly ? { planOnly } : {}),
  ...(pool.checkpoints && !planOnly ? { checkpoints: pool.checkpoints } : {}),
  // A third party's framework: its adapter, which the worker loads too (only that one: no other can break it).
  ...(adapterOf(target.framework) !== undefined ? { adapters: [adapterOf(target.framework)!] } : {}),
});

/** How a worker ended: it finished the version, could not load it, or was lost in (or between) units. */
type Outcome =
  | { kind: 'done' }
  | { kind: 'load-failed'; reason: string }
  | { kind: 'lost'; unit: Unit | undefined; verdict: Verdict; reason: string };

/** Runs one version to the end, respawning its worker past each unit that crashed or hung. */
async function runTarget(target: Target, pool: PoolOptions, events: PoolEvents): Promise<void> {
  const key = `${target.framework}@${target.version}`;
  const skip = new Set(pool.done.get(key) ?? []);
  /** A unit this run still has to run: not done, and among the target's units where it names them. */
  const wanted = (u: Unit) => !skip.has(u.key) && (target.units?.includes(u.key) ?? true);
  const { file, execArgv } = workerCommand();
  let planned = false;
  /** The version's units, from the last plan a worker sent. */
  let lastUnits: readonly Unit[] = [];
  /** Workers in a row that died outside any unit. */
  let idleDeaths = 0;
  for (;;) {
    const tag = newWorkerTag();
    const tmp = workerTmp();
    const server = await serverEnv(frameworks().find((f) => f.name === target.framework) ?? {});
    const outcome = await new Promise<Outcome>((resolve, reject) => {
      const child: ChildProcess = fork(file, [], {
        execArgv,
        serialization: 'advanced',
        stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
        env: { ...process.env, ...tmp.env, ...server, [WORKER_TAG_ENV]: tag },
      });
      let stderr = '';
      child.stderr!.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-STDERR_KEPT)));
      let current: Unit | undefined;
      let units: readonly Unit[] = [];
      let timer: NodeJS.Timeout | undefined;
      let timedOut = false;
      // Installing and importing a version has a limit too (loadLimitMs): a stalled install must not hang the run.
      const loadMs = loadLimitMs(pool.timeoutMs);
      let loading: NodeJS.Timeout | undefined =
        loadMs === undefined
          ? undefined
          : setTimeout(() => {
              loadTimedOut = true;
              child.kill('SIGKILL');
            }, loadMs);
      let loadTimedOut = false;
      let finished: { kind: 'done' } | { kind: 'load-failed'; reason: string } | undefined;
      let chain = Promise.resolve();
      child.on('message', (message: WorkerMessage) => {
        chain = chain.then(async () => {
          switch (message.type) {
            case 'log':
              events.log(target, message.line);
              break;
            case 'load-failed':
              clearTimeout(loading);
              finished = { kind: 'load-failed', reason: message.message };
              break;
            case 'bad-filter':
              child.kill('SIGKILL');
              reject(new UsageError(message.message));
              break;
            case 'plan':
              clearTimeout(loading);
              loading = undefined;
              units = message.units;
              lastUnits = message.units;
              if (!planned) events.plan(target, message, units.filter(wanted));
              planned = true;
              break;
            case 'start':
              current = units.find((u) => u.key === message.key);
              if (current) events.start(target, current);
              if (pool.timeoutMs !== undefined) {
                timer = setTimeout(() => {
                  timedOut = true;
                  child.kill('SIGKILL');
                }, pool.timeoutMs);
              }
              break;
            case 'unit':
              clearTimeout(timer);
              skip.add(message.key);
              current = undefined;
              await events.cells(target, message.cells);
              break;
            case 'done':
              finished = { kind: 'done' };
              break;
          }
        });
      });
      child.on('error', (error) => reject(error));
      // `exit` can come before the last messages and stderr are read; `close` waits for them.
      let exitCode: number | null = null;
      let exitSignal: NodeJS.Signals | null = null;
      child.on('exit', (code, signal) => {
        exitCode = code;
        exitSignal = signal;
      });
      child.on('close', () => {
        clearTimeout(timer);
        clearTimeout(loading);
        tmp.remove();
        const [code, signal] = [exitCode, exitSignal];
        void chain.then(() => {
          if (finished) return resolve(finished);
          const seconds = pool.timeoutMs === undefined ? 0 : Math.round(pool.timeoutMs / 1000);
          const kept = current && pool.checkpoints && existsSync(checkpointFile(pool.checkpoints.dir, target, current.key));
          if (timedOut) {
            const more = kept ? ' (its checkpoint is kept: --resume with a longer --timeout goes on from it)' : '';
            return resolve({ kind: 'lost', unit: current, verdict: 'timeout', reason: `ran past --timeout ${seconds}s; the worker was stopped${more}` });
          }
          if (loadTimedOut) return resolve({ kind: 'load-failed', reason: `installing or importing it ran past ${Math.round(loadMs! / 1000)}s` });
          resolve({ kind: 'lost', unit: current, verdict: 'error', reason: lostReason(code, signal, stderr, kept ? 'unit' : 'unit-from-start') });
        });
      });
      child.send(taskFor(target, pool, [...skip]));
    });
    if (outcome.kind === 'done') return;
    // A worker that did not finish may have left schemas on the PostgreSQL server: drop them once its cells are saved.
    try {
      if (await record(outcome)) return;
    } finally {
      await dropLeftoverSchemas(tag);
    }
  }

  /** Saves the cells a worker that did not finish leaves; true when the version is done with. */
  async function record(outcome: Exclude<Outcome, { kind: 'done' }>): Promise<boolean> {
    if (outcome.kind === 'load-failed') {
      events.failed(target, outcome.reason);
      await events.cells(target, loadFailedCells(target, pool.filters, outcome.reason, pool.options.mode));
      return true;
    }
    if (!outcome.unit) {
      if (!planned) {
        // The worker died before it could say what the version has: the version cannot run.
        events.failed(target, outcome.reason);
        await events.cells(target, loadFailedCells(target, pool.filters, outcome.reason, pool.options.mode));
        return true;
      }
      // It died between units: try again, but not forever.
      if (++idleDeaths < 3) return false;
      for (const unit of lastUnits.filter(wanted)) {
        skip.add(unit.key);
        await events.cells(target, unfinishedCells(target, unit, 'error', outcome.reason, pool.options.mode));
      }
      return true;
    }
    idleDeaths = 0;
    skip.add(outcome.unit.key);
    await events.cells(target, unfinishedCells(target, outcome.unit, outcome.verdict, outcome.reason, pool.options.mode));
    return false;
  }
}

/** Runs every target, `jobs` at a time. Rejects only on bad input (a filter no version has). */
export async function runPool(targets: readonly Target[], pool: PoolOptions, events: PoolEvents): Promise<void> {
  const queue = [...targets];
  const lanes = Array.from({ length: Math.max(1, Math.min(pool.jobs, queue.length)) }, async () => {
    for (let target = queue.shift(); target; target = queue.shift()) await runTarget(target, pool, events);
  });
  await Promise.all(lanes);
}

/** A version's units in plan order, or why it would not load. */
export type Planned = { readonly units: readonly Unit[] } | { readonly error: string };

/**
 * Every target's plan, without running anything (for `run --shard`, which must see the whole matrix to split it):
 * each version is loaded in a worker of its own, `jobs` at a time, and says which units it has.
 */
export async function planTargets(targets: readonly Target[], pool: Omit<PoolOptions, 'done'>): Promise<Map<string, Planned>> {
  const plans = new Map<string, Planned>();
  const queue = [...targets];
  const lanes = Array.from({ length: Math.max(1, Math.min(pool.jobs, queue.length)) }, async () => {
    for (let target = queue.shift(); target; target = queue.shift()) plans.set(`${target.framework}@${target.version}`, await planTarget(target, pool));
  });
  await Promise.all(lanes);
  return plans;
}

async function planTarget(target: Target, pool: Omit<PoolOptions, 'done'>): Promise<Planned> {
  const { file, execArgv } = workerCommand();
  const server = await serverEnv(frameworks().find((f) => f.name === target.framework) ?? {});
  return new Promise<Planned>((resolve, reject) => {
    const tmp = workerTmp();
    const child = fork(file, [], { execArgv, serialization: 'advanced', stdio: ['ignore', 'ignore', 'pipe', 'ipc'], env: { ...process.env, ...tmp.env, ...server } });
    let stderr = '';
    child.stderr!.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-STDERR_KEPT)));
    let planned: Planned | undefined;
    const loadMs = loadLimitMs(pool.timeoutMs);
    const timer =
      loadMs === undefined
        ? undefined
        : setTimeout(() => {
            planned ??= { error: `installing or importing it ran past ${Math.round(loadMs / 1000)}s` };
            child.kill('SIGKILL');
          }, loadMs);
    child.on('message', (message: WorkerMessage) => {
      if (message.type === 'plan') planned ??= { units: message.units };
      else if (message.type === 'load-failed') planned ??= { error: message.message };
      else if (message.type === 'bad-filter') {
        child.kill('SIGKILL');
        reject(new UsageError(message.message));
      }
    });
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      tmp.remove();
      resolve(planned ?? { error: lostReason(code, signal, stderr, 'plan') });
    });
    child.send(taskFor(target, pool, [], true));
  });
}
