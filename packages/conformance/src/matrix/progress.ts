// Live progress on stderr: units done of those planned, the version and unit now running, elapsed time and an
// estimate of what is left. Wall-clock time is only shown, never used to decide anything.
import type { Io } from '../commands/command.js';
import type { ResultCell } from '../results.js';
import type { Unit } from './protocol.js';
import type { Target } from './pool.js';

const clock = (ms: number) => {
  const s = Math.round(ms / 1000);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const pad = (n: number) => String(n).padStart(2, '0');
  return h > 0 ? `${h}:${pad(m)}:${pad(s % 60)}` : `${m}:${pad(s % 60)}`;
};

export class Progress {
  readonly #io: Io;
  readonly #quiet: boolean;
  readonly #targets: number;
  readonly #started = Date.now();
  #planned = 0;
  #total = 0;
  #done = 0;

  constructor(io: Io, quiet: boolean, targets: number) {
    this.#io = io;
    this.#quiet = quiet;
    this.#targets = targets;
  }

  planned(_target: Target, units: number): void {
    this.#planned++;
    this.#total += units;
  }

  started(target: Target, unit: Unit): void {
    if (this.#quiet) return;
    const elapsed = Date.now() - this.#started;
    const left = this.#total - this.#done;
    const eta =
      this.#done === 0
        ? ''
        : `, ETA ${clock((elapsed / this.#done) * left)}${this.#planned < this.#targets ? ' (more versions to plan)' : ''}`;
    this.#io.err(
      `[${this.#done + 1}/${this.#total}${this.#planned < this.#targets ? '+' : ''}] ${target.framework}@${target.version} ` +
        `${unit.wiring} ${unit.store} ${unit.scenario} · ${clock(elapsed)} elapsed${eta}\n`,
    );
  }

  finished(_target: Target, cells: readonly ResultCell[]): void {
    if (cells.some((c) => c.wiring !== '*')) this.#done++;
  }

  failed(target: Target, reason: string): void {
    if (!this.#quiet) this.#io.err(`${target.framework}@${target.version}: could not run: ${reason}\n`);
  }

  end(): void {
    if (!this.#quiet) this.#io.err(`Ran ${this.#done} unit${this.#done === 1 ? '' : 's'} in ${clock(Date.now() - this.#started)}.\n`);
  }
}
