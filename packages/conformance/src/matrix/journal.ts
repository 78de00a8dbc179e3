// The run's results on disk, rewritten (through a temporary file) soon after a unit finishes, so an interrupted run
// loses at most the last seconds of what it finished (Ctrl-C, which flushes first, loses nothing). A resumed run starts
// from the file and skips what it holds.
import { readFile } from 'node:fs/promises';
import { arch, availableParallelism, platform, release } from 'node:os';
import semver from 'semver';
import { frameworkNames, frameworks } from '../frameworks.js';
import { contentsChecked, readResults, writeResults, type Environment, type ResultCell, type ResultTarget, type RunOptions, type ShardInfo } from '../results.js';
import { UsageError } from '../usage-error.js';
import { unitKey } from './protocol.js';

export async function environment(): Promise<Environment> {
  const pkg = JSON.parse(await readFile(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
  return { suite: pkg.version, node: process.version, os: `${platform()} ${release()}`, arch: arch(), cpus: availableParallelism() };
}

const targetKey = (t: { framework: string; version: string }) => `${t.framework}@${t.version}`;

/** Frameworks in the registry's order, versions oldest first; a version that is not semver (a file: build) last. */
export function compareTargets(a: { framework: string; version: string }, b: { framework: string; version: string }) {
  const names = frameworkNames();
  const byName = names.indexOf(a.framework) - names.indexOf(b.framework);
  if (byName !== 0) return byName;
  const [va, vb] = [semver.valid(a.version), semver.valid(b.version)];
  if (va && vb) return semver.compare(va, vb);
  return va ? -1 : vb ? 1 : a.version.localeCompare(b.version);
}

/** The lists of what a run covers: --extend may add to them. */
const LISTED = ['wirings', 'stores', 'scenarios'] as const;

/**
 * How `now` leaves out what `was` covered, or changes how its units run (`undefined`: it only adds to the lists). A
 * list left out covers everything, so it includes any list, and no list includes it.
 */
function narrowedBy(was: RunOptions, now: RunOptions): string | undefined {
  for (const name of LISTED) {
    const [before, after] = [was[name], now[name]];
    if (after === undefined) continue;
    if (before === undefined) return `names only some ${name}, where the results ran all`;
    const dropped = before.filter((x) => !after.includes(x));
    if (dropped.length > 0) return `leaves out ${name} ${dropped.join(', ')}`;
  }
  const rest = (o: RunOptions) => JSON.stringify({ ...o, wirings: 0, stores: 0, scenarios: 0 });
  return rest(was) === rest(now) ? undefined : 'explores another way or checks other properties (mode, seed, schedules, reductions or --property)';
}

export class Journal {
  readonly #file: string | undefined;
  readonly #environment: Environment;
  readonly #started: string;
  readonly #targets = new Map<string, ResultTarget>();
  /** Cells per target, in the order they finished (deterministic within a target). */
  readonly #cells = new Map<string, ResultCell[]>();
  #writing = Promise.resolve();
  /** A write waiting for its time (see `#schedule`). */
  #timer: NodeJS.Timeout | undefined;
  /** When the next write may start: writing the whole file after every unit cost the default matrix minutes. */
  #nextWriteAt = 0;
  #planned: string[] = [];
  #complete = false;
  #options: RunOptions | undefined;
  #shard: ShardInfo | undefined;
  /** The shard the resumed file was (undefined: not a shard, or not resumed). */
  #resumedShard: ShardInfo | undefined;
  #resumed = false;
  /** Resumed with --extend: versions the results did not plan may join them. */
  #extend = false;
  /** Resumed with --extend and longer lists of wirings, stores or scenarios than the results were run with. */
  #widened = false;
  /** Set once the run is interrupted: what finishes after that is not written (its worker was stopped too). */
  #stopped = false;
  /** When the results file was last written: its `updated`, which the reports of the run say too. */
  #updated: string | undefined;
  /**
   * Whether the results differ from the file this run resumed (a new run's always do): a resumed run that ran and
   * added nothing leaves the file as it was, its `updated` and environment included.
   */
  #changed = true;
  /** Whether the resumed results were complete: a resume that adds no version leaves them so. */
  #wasComplete = false;

  /** Whether cells added now are kept: not once the run was interrupted. */
  get recording(): boolean {
    return !this.#stopped;
  }

  private constructor(file: string | undefined, env: Environment, started: string) {
    this.#file = file;
    this.#environment = env;
    this.#started = started;
  }

  /** A journal writing to `file` (or to nothing), started afresh or from what `file` already holds. */
  static async open(file: string | undefined, resume: boolean, options: RunOptions, extend = false): Promise<Journal> {
    const env = await environment();
    if (!resume || file === undefined) {
      const fresh = new Journal(file, env, new Date().toISOString());
      fresh.#options = options;
      return fresh;
    }
    const previous = await readResults(file);
    // Cells checked for contents and cells not would read as one run's, which checked them or did not: refuse, and
    // say how to go on. A file that does not say was made without (`readResults`).
    const [was, now] = [contentsChecked(previous.options), contentsChecked(options)];
    if (was !== now) {
      throw new UsageError(
        `${file} was run ${was ? 'checking contents' : 'without checking contents (--no-check-contents, or before run checked them by default)'}, and this run ${now ? 'checks them' : 'does not'}: the cells would mix. ` +
          `Resume it ${was ? 'without --no-check-contents' : 'with --no-check-contents'}, or write to a new file.`,
      );
    }
    // Cells from other options would mix with these and read as one run: refuse. With --extend, the lists of what
    // to run (wirings, stores, scenarios) may grow: the cells kept are the same units either way. Not the properties:
    // a unit that ran is not run again, so a property added would be missing from it.
    if (previous.options && JSON.stringify(previous.options) !== JSON.stringify(options)) {
      const narrowed = extend ? narrowedBy(previous.options, options) : undefined;
      if (!extend || narrowed !== undefined) {
        const why = narrowed === undefined ? '' : ` (--extend may add ${LISTED.join(', ')}, but this run ${narrowed})`;
        throw new UsageError(
          `${file} was run with other options (${JSON.stringify(previous.options)})${why}; resume it with the same ones, or write to a new file.`,
        );
      }
    }
    const widened = previous.options !== undefined && JSON.stringify(previous.options) !== JSON.stringify(options);
    const journal = new Journal(file, env, previous.started ?? new Date().toISOString());
    journal.#options = options;
    journal.#resumed = true;
    journal.#extend = extend;
    journal.#widened = widened;
    journal.#resumedShard = previous.shard;
    journal.#shard = previous.shard;
    journal.#planned = [...(previous.planned ?? [])];
    journal.#changed = widened;
    // Widened (--extend with longer lists), the results lack the added units until this run has run them.
    journal.#wasComplete = previous.complete === true && !widened;
    journal.#complete = journal.#wasComplete;
    journal.#updated = previous.updated;
    for (const target of previous.targets ?? []) journal.#targets.set(targetKey(target), target);
    for (const cell of previous.cells) {
      const list = journal.#cells.get(targetKey(cell)) ?? [];
      list.push(cell);
      journal.#cells.set(targetKey(cell), list);
    }
    return journal;
  }

  /** Which shard of a split run these results are (undefined: the whole run); a resumed run must be the same part. */
  shard(shard: ShardInfo | undefined): void {
    if (this.#resumed && this.#resumedShard?.plan !== shard?.plan) {
      const was = this.#resumedShard ? `shard ${this.#resumedShard.index}/${this.#resumedShard.count} of another plan` : 'not a shard';
      const now = shard ? `shard ${shard.index}/${shard.count}` : 'the whole run';
      throw new UsageError(`${this.#file} is ${was}; this run is ${now}. Resume it with the --shard it was run with (and the same frameworks and options), or write to a new file.`);
    }
    if (this.#resumed && this.#resumedShard && shard && this.#resumedShard.index !== shard.index) {
      throw new UsageError(`${this.#file} is shard ${this.#resumedShard.index}/${this.#resumedShard.count}; resume it with --shard ${this.#resumedShard.index}/${this.#resumedShard.count}, not ${shard.index}/${shard.count}.`);
    }
    if (JSON.stringify(this.#shard) !== JSON.stringify(shard)) this.#changed = true;
    this.#shard = shard;
  }

  /** Whether this run adds wirings, stores or scenarios to the results it continues (`--extend`). */
  get widened(): boolean {
    return this.#widened;
  }

  /** Unit keys finished per target, for the workers to skip. */
  done(): Map<string, Set<string>> {
    const done = new Map<string, Set<string>>();
    for (const [key, cells] of this.#cells) done.set(key, new Set(cells.map(unitKey)));
    return done;
  }

  /**
   * Versions this resumed run need not start a worker for: their record says how many units they have, and the
   * run has each of them `done` (the units named, where a target names them). The count holds only for the plan it
   * was made by: the record must be of the same spec (`ai` plans a default version narrower than
   * `ai@6.0.326`) and of the same key parts here (`keysNow`: an adapter that gained a wiring has more units).
   */
  finishedTargets<T extends { framework: string; version: string; spec: string; units?: readonly string[] }>(
    targets: readonly T[],
    done: ReadonlyMap<string, ReadonlySet<string>>,
    keysNow: (t: T) => object | string,
  ): Set<string> {
    const finished = new Set<string>();
    for (const t of targets) {
      const record = this.#targets.get(targetKey(t));
      const units = done.get(targetKey(t)) ?? new Set<string>();
      if (!record || record.error !== undefined || record.units === undefined || record.spec !== t.spec) continue;
      const keys = keysNow(t);
      if (record.keys === undefined || typeof keys === 'string' || JSON.stringify(record.keys) !== JSON.stringify(keys)) continue;
      if (t.units ? t.units.every((u) => units.has(u)) : units.size >= record.units) finished.add(targetKey(t));
    }
    return finished;
  }

  /** Targets whose version never loaded (their cells are `*` errors): a resumed run does not try them again. */
  failed(): Set<string> {
    return new Set([...this.#targets.values()].filter((t) => t.error !== undefined).map(targetKey));
  }

  /** The versions this run covers, added to those a resumed run already had. */
  plan(targets: readonly { framework: string; version: string }[]): void {
    // A resumed run may go on with some of the versions it planned, not with others: their cells would read as the
    // same run's.
    const added = this.#resumed && !this.#extend && this.#planned.length > 0 ? targets.map(targetKey).filter((k) => !this.#planned.includes(k)) : [];
    if (added.length > 0) {
      throw new UsageError(
        `${this.#file} is a run of ${this.#planned.join(', ')}; this one adds ${added.join(', ')}. Resume it with the --framework it was run with (or some of its versions); to add versions to these results on purpose, give --extend too.`,
      );
    }
    for (const t of targets) {
      if (this.#planned.includes(targetKey(t))) continue;
      this.#planned.push(targetKey(t));
      this.#changed = true;
      this.#wasComplete = false;
    }
    this.#complete = this.#wasComplete;
  }

  /**
   * This run reached its end: the results are complete when it covered every version ever planned for them (a
   * resumed run that was narrowed to some versions leaves the others unfinished).
   */
  finish(ran: readonly { framework: string; version: string }[]): Promise<void> {
    const covered = new Set(ran.map(targetKey));
    const complete = this.#wasComplete || this.#planned.every((p) => covered.has(p));
    if (complete !== this.#wasComplete) this.#changed = true;
    this.#complete = complete;
    return this.flush();
  }

  get complete(): boolean {
    return this.#complete;
  }

  /** The `updated` of the last write of the results file (after `flush`), if it was written. */
  get updated(): string | undefined {
    return this.#updated;
  }

  target(given: ResultTarget): void {
    if (this.#stopped) return;
    // A third party's framework says where its adapter is, for the commands that read the results.
    const origin = frameworks().find((f) => f.name === given.framework)?.origin;
    const target = origin === undefined || given.adapter !== undefined ? given : { ...given, adapter: origin };
    if (JSON.stringify(this.#targets.get(targetKey(target))) === JSON.stringify(target)) return;
    this.#targets.set(targetKey(target), target);
    this.#changed = true;
  }

  /** Whether this run changed the results it resumed (a new run: always); when not, nothing was written. */
  get changed(): boolean {
    return this.#changed;
  }

  async add(cells: readonly ResultCell[]): Promise<void> {
    if (this.#stopped) return;
    if (cells.length > 0) this.#changed = true;
    for (const cell of cells) {
      const list = this.#cells.get(targetKey(cell)) ?? [];
      const at = list.findIndex((c) => c.id === cell.id);
      if (at >= 0) list[at] = cell;
      else list.push(cell);
      this.#cells.set(targetKey(cell), list);
    }
    this.#schedule();
  }

  /**
   * Writes the file once the last write is far enough behind: at least a second, and ten times as long as that write
   * took, so that writing a large file (9 MB for the default matrix) never takes more than a tenth of a core.
   */
  #schedule(): void {
    if (this.#timer !== undefined || this.#file === undefined) return;
    this.#timer = setTimeout(() => void this.flush(), Math.max(0, this.#nextWriteAt - Date.now()));
    // The run flushes when it ends; a write still waiting must not keep a finished process alive.
    this.#timer.unref();
  }

  /**
   * The run was interrupted: write what finished and nothing after it. Workers get the same signal, and a unit
   * they drop must stay unfinished, to run again on --resume, never become an error cell.
   */
  stop(): Promise<void> {
    this.#stopped = true;
    return this.flush();
  }

  /** How many units hold finished cells, in all. */
  finishedUnits(): number {
    return [...this.done().values()].reduce((n, units) => n + units.size, 0);
  }

  cells(): ResultCell[] {
    return [...this.#cells.entries()]
      .sort(([a], [b]) => compareTargets(parse(a), parse(b)))
      .flatMap(([, cells]) => cells);
  }

  get environment(): Environment {
    return this.#environment;
  }

  planned(): string[] {
    return [...this.#planned];
  }

  targets(): ResultTarget[] {
    return [...this.#targets.values()].sort(compareTargets);
  }

  /** Writes are queued, so two units finishing together never interleave their files. */
  flush(): Promise<void> {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    const file = this.#file;
    if (file === undefined || !this.#changed) return Promise.resolve();
    this.#writing = this.#writing.then(async () => {
      const started = Date.now();
      const updated = new Date().toISOString();
      await writeResults(file, {
        environment: this.#environment,
        started: this.#started,
        updated,
        targets: this.targets(),
        planned: [...this.#planned].sort((a, b) => compareTargets(parse(a), parse(b))),
        ...(this.#options ? { options: this.#options } : {}),
        ...(this.#shard ? { shard: this.#shard } : {}),
        ...(this.#complete ? { complete: true } : {}),
        cells: this.cells(),
      });
      this.#updated = updated;
      this.#nextWriteAt = Date.now() + Math.max(1000, 10 * (Date.now() - started));
    });
    return this.#writing;
  }
}

function parse(key: string) {
  const at = key.lastIndexOf('@');
  return { framework: key.slice(0, at), version: key.slice(at + 1) };
}
