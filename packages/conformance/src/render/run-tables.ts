// The terminal tables of a run: one per scenario for a framework version, rows wiring × store, columns properties.
import type { Scenario } from '@approval-conformance/core';
import type { ResultCell } from '../results.js';
import { textTable } from './table.js';
import { CALIBRATION } from './decider.js';
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
  out.push(...notes(cells));
  return out.join('\n').replace(/^\n/, '') + '\n';
}

/** Below a version's verdicts: why cells errored or are not applicable, and what no property covers. */
function notes(cells: readonly ResultCell[]): string[] {
  const out: string[] = [];
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
  return out;
}

/**
 * What a run of one framework version prints first: per wiring and store, the properties it keeps and, one line
 * each, those it fails with the scenario and length of the shortest failure. A pass that not every schedule backs
 * says so; error, timeout and n/a are named, never counted as kept. The full tables are `renderTarget` (--tables).
 */
export function renderTargetSummary(target: { framework: string; version: string; wirings: readonly string[]; stores: readonly string[] }, cells: readonly ResultCell[]): string {
  const out: string[] = [`${target.framework}@${target.version}: ${cells.length} cells: ${tallyVerdicts(cells) || 'none run'}.`];
  if (target.framework === CALIBRATION) {
    out.push(
      'This is the reference runtime, the calibration subject: its settings without an atomic spend, a spend before the',
      'effect or a fresh view fail on purpose, and must fail exactly where the design model says (pnpm conformance model).',
    );
  }
  out.push('');
  for (const wiring of target.wirings) {
    for (const store of target.stores) {
      const mine = cells.filter((c) => c.wiring === wiring && c.store === store);
      if (mine.length === 0) continue;
      const properties = [...new Set(mine.map((c) => c.property))];
      const unproven = mine.filter((c) => c.verdict === 'pass' && !c.exhaustive);
      const failing = properties.filter((p) => mine.some((c) => c.property === p && (c.verdict === 'fail' || c.verdict === 'allowed')));
      const other = mine.filter((c) => c.verdict === 'error' || c.verdict === 'timeout');
      const judged = properties.filter((p) => mine.some((c) => c.property === p && c.verdict !== 'not-applicable'));
      // Kept: every cell that ran passed; a scenario that does not apply to the wiring neither keeps nor breaks it.
      const kept = judged.filter((p) => mine.filter((c) => c.property === p && c.verdict !== 'not-applicable').every((c) => c.verdict === 'pass'));
      if (judged.length === 0) {
        out.push(`${wiring}/${store}: not applicable`);
        continue;
      }
      const keeps = kept.length === judged.length ? `keeps all ${judged.length}` : `keeps ${kept.length} of ${judged.length}${kept.length > 0 ? ` (${kept.join(', ')})` : ''}`;
      const proof = unproven.length > 0 ? `; ${unproven.length} pass${unproven.length === 1 ? '' : 'es'} not backed by every schedule (sampled or cut short): not a proof` : '';
      out.push(`${wiring}/${store}: ${keeps}${proof}`);
      for (const p of failing) {
        const where = mine
          .filter((c) => c.property === p && (c.verdict === 'fail' || c.verdict === 'allowed'))
          .map((c) => `${c.scenario} ${verdictCell(c).replace(/^fail /, '')}`);
        out.push(`  fails ${p}: ${where.join(', ')}`);
      }
      if (other.length > 0) out.push(`  no verdict: ${other.map((c) => `${c.scenario}/${c.property} ${c.verdict}`).join(', ')}`);
    }
  }
  out.push(...notes(cells));
  return `${out.join('\n')}\n`;
}
