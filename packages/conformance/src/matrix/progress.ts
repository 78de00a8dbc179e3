// Live progress on stderr: units done of those planned, the version and unit now running, elapsed time, how much of
// the expected work is done, and an estimate of what is left. Units differ in cost by four orders of magnitude, so
// the share done and the ETA weigh each unit by what it cost in an earlier run (`CostEstimate`), scaled by how fast
// this run has gone so far; with no earlier run they count units. Wall-clock time is only shown, never used to
// decide anything.
//
// To a file or a pipe it writes a line as each unit starts. On a terminal (`io.status`) it keeps one status line
// instead, updated in place, and writes a line only for what is worth keeping on the screen: a unit that failed or
// errored, a version that is done, a version that could not run.
import type { Io } from '../commands/command.js';
import type { ResultCell } from '../results.js';
import { shortVerdict, tallyVerdicts, verdictCell } from '../render/verdict.js';
import type { CostEstimate } from './estimate.js';
import type { Unit } from './protocol.js';
import type { Target } from './pool.js';

export const clock = (ms: number) => {
  const s = Math.round(ms / 1000);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const pad = (n: number) => String(n).padStart(2, '0');
  return h > 0 ? `${h}:${pad(m)}:${pad(s % 60)}` : `${m}:${pad(s % 60)}`;
};

const targetKey = (t: Pick<Target, 'framework' | 'version'>) => `${t.framework}@${t.version}`;
const unitKey = (u: Pick<Unit, 'wiring' | 'store' | 'scenario'>) => `${u.wiring}/${u.store}/${u.scenario}`;

export class Progress {
  readonly #io: Io;
  readonly #quiet: boolean;
  readonly #verbose: boolean;
  readonly #estimate: CostEstimate;
  readonly #started = Date.now();
  /** Per version still to plan: what it is expected to cost in all. */
  readonly #unplanned = new Map<string, number>();
  /** Per planned version: each unit still to run, and what it is expected to cost. */
  readonly #left = new Map<string, Map<string, number>>();
  #total = 0;
  #done = 0;
  #doneCost = 0;
  /** On a terminal: the unit last started, for the status line, and per planned version its units and verdicts so far. */
  #running = '';
  /** On a terminal: redraws the status line each second, so that its clock moves during a long unit. */
  #ticker: ReturnType<typeof setInterval> | undefined;
  readonly #versions = new Map<string, { units: number; verdicts: string[] }>();

  /** How long a run goes before it shows an ETA (tests set 0: none waits for the clock). */
  readonly #etaAfterMs: number;

  /** `verbose`: also a line as each unit ends, with its schedules and time. */
  constructor(io: Io, quiet: boolean, targets: readonly Target[], estimate: CostEstimate, verbose = false, etaAfterMs = 60_000) {
    this.#etaAfterMs = etaAfterMs;
    this.#io = io;
    this.#quiet = quiet;
    this.#verbose = verbose && !quiet;
    this.#estimate = estimate;
    for (const t of targets) this.#unplanned.set(targetKey(t), estimate.version(t.framework, t.version));
  }

  planned(target: Target, units: readonly Unit[]): void {
    this.#unplanned.delete(targetKey(target));
    this.#total += units.length;
    this.#left.set(targetKey(target), new Map(units.map((u) => [unitKey(u), this.#estimate.unit(target.framework, target.version, u)])));
    this.#versions.set(targetKey(target), { units: units.length, verdicts: [] });
  }

  /** The expected cost of what is not done yet. */
  #leftCost(): number {
    let cost = 0;
    for (const v of this.#unplanned.values()) cost += v;
    for (const units of this.#left.values()) for (const v of units.values()) cost += v;
    return cost;
  }

  started(target: Target, unit: Unit): void {
    if (this.#quiet) return;
    this.#running = `${targetKey(target)} ${unit.wiring} ${unit.store} ${unit.scenario}`;
    if (this.#io.status) {
      this.#io.status(this.#line(true));
      this.#ticker ??= setInterval(() => this.#io.status?.(this.#line(true)), 1000).unref();
    } else {
      this.#io.err(`${this.#line(false)}\n`);
    }
  }

  /**
   * `[3/10 done] running lg@1.0 a memory replay · 0:42 elapsed, 12% done, ETA 5:10`; on a terminal, where a line too
   * wide is cut at its end, the times come first: `[3/10 done] 0:42 elapsed, 12% done, ETA 5:10 · running lg@1.0 ...`.
   */
  #line(terminal: boolean): string {
    const elapsed = Date.now() - this.#started;
    const more = this.#unplanned.size > 0;
    const left = this.#leftCost();
    let eta = '';
    if (this.#doneCost > 0) {
      const share = this.#doneCost / (this.#doneCost + left);
      // Expected cost done per millisecond so far, all workers together. Early on, installing and importing the
      // versions and starting the workers weigh too much in it (the first estimates ran 3-4 times high, and 15 times
      // right after --resume): the ETA waits for a tenth of this run's work and a minute of it.
      const rate = this.#doneCost / elapsed;
      eta = `, ${Math.floor(share * 100)}% done${share >= 0.1 && elapsed >= this.#etaAfterMs ? `, ETA ${clock(left / rate)}` : ''}`;
    }
    // The count is of units finished, so it never reads as more than the results file holds.
    const count = `[${this.#done}/${this.#total}${more ? '+' : ''} done]`;
    const times = `${clock(elapsed)} elapsed${eta}`;
    if (terminal) return `${count} ${times}${this.#running ? ` · running ${this.#running}` : ''}`;
    return `${count} running ${this.#running} · ${times}`;
  }

  finished(target: Target, cells: readonly ResultCell[]): void {
    const units = this.#left.get(targetKey(target));
    for (const key of new Set(cells.filter((c) => c.wiring !== '*').map(unitKey))) {
      if (this.#verbose) {
        const mine = cells.filter((c) => unitKey(c) === key);
        const { schedules, ms } = mine[0]!;
        const verdicts = mine.map((c) => `${c.property} ${shortVerdict(c.verdict)}`).join(', ');
        this.#io.err(`  done ${targetKey(target)} ${key.replace(/\//g, ' ')}: ${schedules} schedule${schedules === 1 ? '' : 's'}${ms === undefined ? '' : ` in ${(ms / 1000).toFixed(1)} s`} (${verdicts})\n`);
      }
      this.#done++;
      this.#doneCost += units?.get(key) ?? 0;
      units?.delete(key);
    }
    if (this.#quiet || !this.#io.status) return;
    // On a terminal: a line per unit that failed or errored, and one when the version is done.
    const version = this.#versions.get(targetKey(target));
    version?.verdicts.push(...cells.map((c) => c.verdict));
    for (const key of new Set(cells.filter((c) => c.wiring !== '*').map(unitKey))) {
      const bad = cells.filter((c) => unitKey(c) === key && ['fail', 'error', 'timeout'].includes(c.verdict));
      if (bad.length === 0) continue;
      const reason = bad.find((c) => c.verdict !== 'fail' && c.reason)?.reason?.split('\n')[0];
      this.#io.err(`${targetKey(target)} ${key.replace(/\//g, ' ')}: ${bad.map((c) => `${c.property} ${verdictCell(c)}`).join(', ')}${reason ? ` (${reason})` : ''}\n`);
    }
    if (version && units?.size === 0) {
      this.#versions.delete(targetKey(target));
      const tally = tallyVerdicts(version.verdicts.map((verdict) => ({ verdict })), shortVerdict);
      this.#io.err(`${targetKey(target)} done: ${version.units} unit${version.units === 1 ? '' : 's'}${tally ? `, ${tally}` : ''}.\n`);
    }
    this.#io.status(this.#line(true));
  }

  failed(target: Target, reason: string): void {
    this.#unplanned.delete(targetKey(target));
    this.#left.delete(targetKey(target));
    this.#versions.delete(targetKey(target));
    if (!this.#quiet) this.#io.err(`${targetKey(target)}: could not run: ${reason}\n`);
  }

  end(): void {
    clearInterval(this.#ticker);
    this.#ticker = undefined;
    this.#io.status?.('');
    if (!this.#quiet) this.#io.err(`Ran ${this.#done} unit${this.#done === 1 ? '' : 's'} in ${clock(Date.now() - this.#started)}.\n`);
  }
}
