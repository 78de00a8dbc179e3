import { mkdtempSync, existsSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { exploreCell, SCENARIOS, type Adapter, type CellCheckpoint } from '@approval-conformance/core';
import { referenceAdapter } from '@approval-conformance/adapter-reference';
import { writeCheckpoint } from './checkpoints.js';
import { planUnits, runUnit, type UnitSaving } from './units.js';

const adapter = {
  framework: 'fixture',
  version: '1.0.0',
  wirings: [{ id: 'plain', description: 'plain' }, { id: 'newer', description: 'needs a newer release' }],
  stores: ['memory'],
  applicability: (_scenario: string, wiring: string) =>
    wiring === 'newer' ? { applicable: false as const, reason: 'this version lacks it' } : { applicable: true as const },
  createWorld: () => Promise.reject(new Error('not run here')),
} as unknown as Adapter;

describe('planUnits', () => {
  it('marks the units the version cannot run, so that an audit leaves them out', () => {
    const units = planUnits(adapter, { scenarios: ['replay'] });
    expect(units.map((u) => [u.key, u.notApplicable ?? false])).toEqual([
      ['plain/memory/replay', false],
      ['newer/memory/replay', true],
    ]);
  });
});

describe('runUnit with checkpoints', () => {
  const unitOf = (wiring: string) => planUnits(referenceAdapter, { scenarios: ['double-resume'], wirings: [wiring], stores: ['memory'] })[0]!;
  const withoutTime = (cells: readonly { ms?: number }[]) => cells.map(({ ms: _, ...cell }) => cell);
  const saving = (file: string, lines: string[], key = 'k1'): UnitSaving => ({
    file,
    key,
    resume: true,
    everyMs: 0,
    sayEveryMs: Number.POSITIVE_INFINITY,
    log: (line) => void lines.push(line),
  });

  // A failing cell (after-snapshot-serial: 53 schedules) and a passing one (before-fresh-serial: 25).
  for (const wiring of ['after-snapshot-serial', 'before-fresh-serial']) {
    it(`goes on from a saved checkpoint to the cells of a run never stopped (${wiring})`, async () => {
      const unit = unitOf(wiring);
      const whole = await runUnit(referenceAdapter, unit, {});
      // Where the exploration stood half-way, as a worker killed there would have left it.
      const states: CellCheckpoint[] = [];
      const subject = { adapter: referenceAdapter, wiring, store: 'memory', scenario: SCENARIOS.get('double-resume')! };
      await exploreCell(subject, {}, { save: (take) => void states.push(take()) });
      const file = join(mkdtempSync(join(tmpdir(), 'checkpoints-')), `${unit.key}.json`);
      writeCheckpoint(file, { checkpoint: 1, key: 'k1', ms: 5000, cell: states[Math.floor(states.length / 2)]! });

      const lines: string[] = [];
      const resumed = await runUnit(referenceAdapter, unit, {}, saving(file, lines));
      expect(withoutTime(resumed)).toEqual(withoutTime(whole));
      expect(lines).toEqual([expect.stringMatching(/going on from its checkpoint \(\d+ schedules run before, in 5 s\)/)]);
      // Its time counts the time before. The checkpoint stays until the runner has saved the cells (checkpoints.test.ts).
      expect(resumed[0]!.ms).toBeGreaterThanOrEqual(5000);
      expect(existsSync(file)).toBe(true);
    });
  }

  // Of failures as short, the first found holds a property's place: a run as short for two properties must go back to
  // the one it held, not to the other's (after-fresh-serial has such ties: every checkpoint of it; three of the others).
  it('goes on from the checkpoints of every double-resume wiring to the same cell', async () => {
    for (const wiring of referenceAdapter.wirings.map((w) => w.id)) {
      const subject = { adapter: referenceAdapter, wiring, store: 'memory', scenario: SCENARIOS.get('double-resume')! };
      const whole = await exploreCell(subject);
      const states: CellCheckpoint[] = [];
      await exploreCell(subject, {}, { save: (take) => void states.push(JSON.parse(JSON.stringify(take())) as CellCheckpoint) });
      const picks = wiring === 'after-fresh-serial' ? states.keys() : new Set([0, states.length >> 1, states.length - 1]);
      for (const i of picks) {
        expect(await exploreCell(subject, {}, { resume: states[i]! }), `${wiring} from checkpoint ${i + 1}`).toEqual(whole);
      }
    }
  });

  it('starts over, and says why, from a checkpoint of other code or a damaged one', async () => {
    const unit = unitOf('before-fresh-serial');
    const whole = await runUnit(referenceAdapter, unit, {});
    const states: CellCheckpoint[] = [];
    const subject = { adapter: referenceAdapter, wiring: unit.wiring, store: 'memory', scenario: SCENARIOS.get('double-resume')! };
    await exploreCell(subject, {}, { save: (take) => void states.push(take()) });
    const file = join(mkdtempSync(join(tmpdir(), 'checkpoints-')), 'unit.json');

    writeCheckpoint(file, { checkpoint: 1, key: 'other', ms: 10, cell: states[3]! });
    const lines: string[] = [];
    expect(withoutTime(await runUnit(referenceAdapter, unit, {}, saving(file, lines)))).toEqual(withoutTime(whole));
    writeFileSync(file, '{"checkpoint": 1, "key": "k1", ');
    expect(withoutTime(await runUnit(referenceAdapter, unit, {}, saving(file, lines)))).toEqual(withoutTime(whole));
    expect(lines).toEqual([
      expect.stringMatching(/its key differs\); starting over$/),
      expect.stringMatching(/is damaged \(not JSON\); starting over$/),
    ]);
  });

  it('saves as it goes, and says how far it has got', async () => {
    const unit = unitOf('after-snapshot-serial');
    const dir = mkdtempSync(join(tmpdir(), 'checkpoints-'));
    const lines: string[] = [];
    // A folder where the file should be: the save fails, is said once, and the unit runs on to its verdicts.
    const blocked = join(dir, 'blocked.json');
    writeCheckpoint(join(blocked, 'x.json'), { checkpoint: 1, key: 'k1', ms: 0, cell: { exploration: { schedules: 0, bounded: 0, pruned: 0, firstNew: 0, stack: [] }, failures: [], findings: [] } });
    const cells = await runUnit(referenceAdapter, unit, {}, { ...saving(blocked, lines), resume: false, sayEveryMs: 0 });
    expect(cells.map((c) => c.verdict)).toContain('fail');
    expect(lines).toEqual([expect.stringMatching(/could not save a checkpoint .*; it runs on without$/)]);

    const said: string[] = [];
    await runUnit(referenceAdapter, unit, {}, { ...saving(join(dir, 'unit.json'), said), resume: false, sayEveryMs: 0 });
    expect(said[0]).toMatch(/^after-snapshot-serial memory double-resume: 1 schedules so far, still running \(checkpoint saved\)$/);
    expect(existsSync(join(dir, 'unit.json'))).toBe(true);
  });
});
