// The terminal tables of a run: one per scenario for a framework version, rows wiring × store, columns properties.
import type { Scenario } from '@approval-conformance/core';
import type { ResultCell } from '../results.js';
import { textTable } from './table.js';
import { tallyVerdicts, verdictCell } from './verdict.js';

/** The tables of one framework version, scenario by scenario, and the tallies, reasons and findings below them. */
export function renderTarget(target: { framework: string; version: string; wirings: readonly string[]; stores: readonly string[]; scenarios: readonly Scenario[] }, cells: readonly ResultCell[]): string {
  const out: string[] = [];
  for (const scenario of target.scenarios) {
    const mine = cells.filter((c) => c.scenario === scenario.id);
    const properties = scenario.properties.filter((p) => mine.some((c) => c.property === p));
    if (properties.length === 0) continue;
    out.push('', `${target.framework}@${target.version} · ${scenario.id}: ${scenario.summary}`, '');
    const rows = target.wirings.flatMap((wiring) =>
      target.stores.map((store) => [
        wiring,
        store,
        ...properties.map((p) => {
          const cell = mine.find((c) => c.wiring === wiring && c.store === store && c.property === p);
          return cell ? verdictCell(cell) : '';
        }),
      ]),
    );
    out.push(textTable(['wiring', 'store', ...properties], rows));
  }
  const tally = tallyVerdicts(cells);
  out.push('', `${cells.length} cells: ${tally || 'none run'}.`);
  for (const cell of cells.filter((c) => c.verdict === 'error' || c.verdict === 'timeout')) {
    out.push(`  ${cell.id}: ${cell.verdict}: ${cell.reason}`);
  }
  const notApplicable = new Map<string, Set<string>>();
  for (const c of cells.filter((c) => c.verdict === 'not-applicable')) {
    const where = notApplicable.get(c.reason ?? '') ?? new Set<string>();
    notApplicable.set(c.reason ?? '', where.add(`${c.wiring}/${c.store}`));
  }
  if (notApplicable.size > 0) out.push('', 'Not applicable:');
  for (const [reason, where] of notApplicable) out.push(`  ${[...where].join(', ')}: ${reason}`);
  const findings = new Map<string, readonly string[]>();
  for (const c of cells) if (c.findings) findings.set(`${c.framework}@${c.version}/${c.wiring}/${c.store}/${c.scenario}`, c.findings);
  if (findings.size > 0) out.push('', 'Findings (behaviour no property covers):');
  for (const [where, list] of findings) out.push(...list.map((f) => `  ${where}: ${f}`));
  return out.join('\n').replace(/^\n/, '') + '\n';
}
