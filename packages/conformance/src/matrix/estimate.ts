// What a unit is expected to cost, in milliseconds, read from an earlier run's results (the published reports, or the
// results being resumed): the same unit there if it ran, or else the same wiring, store and scenario in another
// version of the framework, or else that scenario's units of the framework, or else the median unit. With no earlier
// run at all every unit costs the same, and the estimate counts units. Used only to order the work and to show an
// ETA; it never decides anything about a verdict.
import { readFile } from 'node:fs/promises';
import type { ResultCell } from '../results.js';
import type { Unit } from './protocol.js';

type Where = Pick<ResultCell, 'framework' | 'version' | 'wiring' | 'store' | 'scenario'>;

const median = (xs: readonly number[]) => {
  if (xs.length === 0) return undefined;
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
};

export class CostEstimate {
  readonly #exact = new Map<string, number>();
  readonly #byShape = new Map<string, number[]>();
  readonly #byScenario = new Map<string, number[]>();
  readonly #typical: number;
  /** Whether any earlier run informs it (otherwise every unit costs 1). */
  readonly informed: boolean;

  constructor(cells: readonly ResultCell[]) {
    const units = new Map<string, ResultCell>();
    for (const c of cells) if (typeof c.ms === 'number' && c.wiring !== '*') units.set(CostEstimate.#key(c), c);
    const push = (map: Map<string, number[]>, key: string, ms: number) => map.set(key, [...(map.get(key) ?? []), ms]);
    for (const [key, c] of units) {
      this.#exact.set(key, c.ms!);
      push(this.#byShape, [c.framework, c.wiring, c.store, c.scenario].join('/'), c.ms!);
      push(this.#byScenario, [c.framework, c.scenario].join('/'), c.ms!);
    }
    this.informed = units.size > 0;
    this.#typical = median([...units.values()].map((c) => c.ms!)) ?? 1;
  }

  /** The estimate from a results file, or an uninformed one when there is none or it cannot be read. */
  static async from(file: string | undefined): Promise<CostEstimate> {
    if (file === undefined) return new CostEstimate([]);
    try {
      const { cells } = JSON.parse(await readFile(file, 'utf8')) as { cells?: unknown };
      return new CostEstimate(Array.isArray(cells) ? (cells as ResultCell[]) : []);
    } catch {
      return new CostEstimate([]);
    }
  }

  static #key(w: Where) {
    return [`${w.framework}@${w.version}`, w.wiring, w.store, w.scenario].join('/');
  }

  /** Milliseconds one unit of a framework version is expected to take. */
  unit(framework: string, version: string, unit: Pick<Unit, 'wiring' | 'store' | 'scenario'>): number {
    if (!this.informed) return 1;
    const where = { framework, version, ...unit };
    return (
      this.#exact.get(CostEstimate.#key(where)) ??
      median(this.#byShape.get([framework, unit.wiring, unit.store, unit.scenario].join('/')) ?? []) ??
      median(this.#byScenario.get([framework, unit.scenario].join('/')) ?? []) ??
      this.#typical
    );
  }

  /**
   * Milliseconds a whole framework version is expected to take, before its units are known: what it took before, or
   * the median of the framework's versions, or a typical unit.
   */
  version(framework: string, version: string): number {
    if (!this.informed) return 1;
    const totals = new Map<string, number>();
    for (const [key, ms] of this.#exact) {
      const target = key.split('/')[0]!;
      if (target.startsWith(`${framework}@`)) totals.set(target, (totals.get(target) ?? 0) + ms);
    }
    return totals.get(`${framework}@${version}`) ?? median([...totals.values()]) ?? this.#typical;
  }
}
