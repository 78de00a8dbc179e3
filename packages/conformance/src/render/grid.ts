// The shape both report formats draw: a framework's grid (rows version × wiring × store, columns scenario/property).
// Markdown and HTML only differ in how they write it down.
import semver from 'semver';
import type { Scenario } from '@approval-conformance/core';
import type { ResultCell } from '../results.js';

export interface GridRow {
  readonly version: string;
  readonly wiring: string;
  readonly store: string;
  /** One per column; undefined where the row has no such cell. */
  readonly cells: readonly (ResultCell | undefined)[];
}

export function frameworkGrid(framework: string, all: readonly ResultCell[], scenarios: readonly Scenario[]) {
  const cells = all.filter((c) => c.framework === framework);
  const columns = scenarios.flatMap((s) =>
    s.properties
      .filter((p) => cells.some((c) => c.scenario === s.id && c.property === p))
      .map((p) => ({ scenario: s.id, property: p })),
  );
  const rows: GridRow[] = [];
  // The newest version first: the one a reader is most likely to adopt.
  const newestFirst = (a: string, b: string) => (semver.valid(a) && semver.valid(b) ? semver.rcompare(a, b) : b.localeCompare(a));
  for (const version of [...new Set(cells.map((c) => c.version))].sort(newestFirst)) {
    const mine = cells.filter((c) => c.version === version);
    for (const row of [...new Set(mine.map((c) => `${c.wiring}\u0000${c.store}`))]) {
      const [wiring, store] = row.split('\u0000') as [string, string];
      const at = (col: { scenario: string; property: string }) =>
        mine.find((c) => c.wiring === wiring && c.store === store && c.scenario === col.scenario && c.property === col.property);
      rows.push({ version, wiring, store, cells: columns.map(at) });
    }
  }
  return { cells, columns, rows };
}

/** Error and timeout cells: counted apart, never as a pass. */
export const brokenCount = (cells: readonly ResultCell[]) => cells.filter((c) => c.verdict === 'error' || c.verdict === 'timeout').length;

export const storesThatRan = (cells: readonly ResultCell[]) => [...new Set(cells.map((c) => c.store).filter((s) => s !== '*'))];

/** Why cells did not run (n/a, error, timeout): each reason once, with the version, wiring and store it stands for. */
export function whyNotRun(cells: readonly ResultCell[]): [reason: string, where: string[]][] {
  const reasons = new Map<string, Set<string>>();
  for (const c of cells.filter((c) => c.verdict === 'not-applicable' || c.verdict === 'error' || c.verdict === 'timeout')) {
    const key = `${c.verdict}: ${c.reason ?? ''}`;
    reasons.set(key, (reasons.get(key) ?? new Set()).add(`${c.version} ${c.wiring}/${c.store}`));
  }
  return [...reasons].map(([reason, where]) => [reason, [...where]]);
}
