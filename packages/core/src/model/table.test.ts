import { describe, expect, it } from 'vitest';
import { modelTable, switchesName, type ModelRow } from './table.js';

function row(rows: readonly ModelRow[], name: string): ModelRow {
  const found = rows.find((r) => switchesName(r) === name);
  if (!found) throw new Error(`no row ${name}`);
  return found;
}

const summary = (r: ModelRow) =>
  Object.fromEntries(
    Object.entries(r.properties).map(([id, v]) => [id, v.verdict === 'holds' ? 'holds' : v.traceStates]),
  );

describe('the design model, two turns', () => {
  const { rows } = modelTable(2);

  it('has one row per switch combination', () => {
    expect(rows.map(switchesName)).toEqual([
      'after-snapshot',
      'after-snapshot-serial',
      'after-fresh',
      'after-fresh-serial',
      'before-snapshot',
      'before-snapshot-serial',
      'before-fresh',
      'before-fresh-serial',
      'cas-snapshot',
      'cas-snapshot-serial',
      'cas-fresh',
      'cas-fresh-serial',
    ]);
  });

  // The essay's table: its five configurations (tla-agent-approval's 1_after_snapshot ... 5_before_serialized).
  it('agrees with the essay on its five rows', () => {
    expect(summary(row(rows, 'after-snapshot'))).toEqual({ 'at-most-once': 7, 'no-resurrection': 4 });
    expect(summary(row(rows, 'after-fresh'))).toEqual({ 'at-most-once': 7, 'no-resurrection': 4 });
    expect(summary(row(rows, 'before-fresh'))).toEqual({ 'at-most-once': 9, 'no-resurrection': 'holds' });
    expect(summary(row(rows, 'cas-fresh'))).toEqual({ 'at-most-once': 'holds', 'no-resurrection': 'holds' });
    expect(summary(row(rows, 'before-fresh-serial'))).toEqual({
      'at-most-once': 'holds',
      'no-resurrection': 'holds',
    });
  });

  it('finds the seven-step race with no crash in it: check, act, record last', () => {
    const amo = row(rows, 'after-snapshot').properties['at-most-once'];
    expect(amo).toEqual({
      verdict: 'violated',
      traceStates: 7,
      trace: [
        'init (record unspent, eff=0)',
        't1 restore (sees unspent)',
        't1 check',
        't1 effect (eff=1)',
        't2 restore (sees unspent)',
        't2 check',
        't2 effect (eff=2)',
      ],
    });
  });

  it('finds the nine-step lost update when the spend is recorded before the effect but not atomically', () => {
    const amo = row(rows, 'before-fresh').properties['at-most-once'];
    if (amo.verdict !== 'violated') throw new Error('expected a violation');
    expect(amo.traceStates).toBe(9);
    // Both turns check before either spends: the read-modify-write race.
    const checks = amo.trace.flatMap((step, i) => (step.endsWith(' check') ? [i] : []));
    const spends = amo.trace.flatMap((step, i) => (step.includes(' spend ') ? [i] : []));
    expect(checks).toHaveLength(2);
    expect(Math.max(...checks)).toBeLessThan(Math.min(...spends));
  });

  it('counts the distinct states as TLC would', () => {
    expect(row(rows, 'after-snapshot').statesExplored).toBe(27);
    expect(row(rows, 'before-fresh').statesExplored).toBe(29);
    expect(row(rows, 'before-fresh-serial').statesExplored).toBe(20);
    expect(row(rows, 'cas-fresh').statesExplored).toBe(16);
  });

  it('never lets a serialised "after" spend pass: serialising does not cover the window after the effect', () => {
    expect(summary(row(rows, 'after-fresh-serial'))['at-most-once']).toBe(7);
  });
});

describe('the design model, more turns', () => {
  it('keeps the same verdicts and trace lengths with three turns, over a larger space', () => {
    const two = modelTable(2).rows;
    const three = modelTable(3).rows;
    expect(three.map(summary)).toEqual(two.map(summary));
    three.forEach((r, i) => expect(r.statesExplored).toBeGreaterThan(two[i]!.statesExplored));
  });

  it('has nothing to race with one turn', () => {
    for (const r of modelTable(1).rows) {
      expect(r.properties['at-most-once'].verdict).toBe('holds');
    }
  });

  it('rejects a turn count that is not a positive integer', () => {
    expect(() => modelTable(0)).toThrow(RangeError);
    expect(() => modelTable(1.5)).toThrow(RangeError);
  });
});
