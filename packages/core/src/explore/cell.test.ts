import { describe, expect, it } from 'vitest';
import { SCENARIOS } from '../scenarios/index.js';
import { exploreCell, type CellCheckpoint } from './cell.js';
import { replaySchedule } from './replay.js';
import { toyAdapter } from './toy.fixtures.js';

const doubleResume = SCENARIOS.get('double-resume')!;
const subject = (options = {}) => ({ adapter: toyAdapter(options), wiring: 'only', store: 'memory', scenario: doubleResume });

describe('exploreCell', () => {
  it('fails a racy subject with the shortest schedule, a story and a replay handle', async () => {
    const cell = await exploreCell(subject());
    expect(cell).toMatchObject({ mode: 'exhaustive', exhausted: true });
    const amo = cell.verdicts.find((v) => v.property === 'at-most-once')!;
    expect(amo.verdict).toBe('fail');
    expect(amo.exhaustive).toBe(true);
    // Both turns read, then both call the tool: four releases.
    expect(amo.counterexample!.steps).toBe(4);
    expect(amo.counterexample!.explanation).toMatch(/reached the world twice/);
    expect(amo.counterexample!.story.filter((line) => line.includes('effect applied'))).toHaveLength(2);
    const again = await replaySchedule(subject(), amo.counterexample!.schedule);
    expect(again.story).toEqual(amo.counterexample!.story);
  });

  it('passes the fixed subject only after exploring every schedule, and says how many', async () => {
    const cell = await exploreCell(subject({ atomic: true }));
    const amo = cell.verdicts.find((v) => v.property === 'at-most-once')!;
    expect(amo).toMatchObject({ verdict: 'pass', exhaustive: true });
    expect(amo.schedules).toBeGreaterThan(1);
    expect(amo.counterexample).toBeUndefined();
  });

  it('reports a nondeterministic subject as an error, never as a pass or a fail', async () => {
    const cell = await exploreCell(subject({ flaky: true }));
    for (const verdict of cell.verdicts) {
      expect(verdict.verdict).toBe('error');
      expect(verdict.reason).toMatch(/^nondeterministic subject/);
    }
  });

  it("uses symmetry only where the adapter says two turns run the same code on the same objects", async () => {
    const alike = { ...subject({ atomic: true }), adapter: { ...toyAdapter({ atomic: true }), turnsAlike: () => true } };
    const [vetoed, used] = [await exploreCell(subject({ atomic: true })), await exploreCell(alike)];
    expect(vetoed.verdicts.map((v) => v.verdict)).toEqual(used.verdicts.map((v) => v.verdict));
    // The runs that release t2 first are run too where the adapter does not say its turns are alike.
    expect(vetoed.schedules).toBeGreaterThan(used.schedules);
  });

  it('says sampled when it samples, and still finds and shrinks the race', async () => {
    const cell = await exploreCell(subject(), { mode: 'sampled', samples: 40, seed: 5 });
    expect(cell).toMatchObject({ mode: 'sampled', exhausted: false, schedules: 40 });
    const amo = cell.verdicts.find((v) => v.property === 'at-most-once')!;
    expect(amo).toMatchObject({ verdict: 'fail', exhaustive: false });
    expect(amo.counterexample!.steps).toBe(4);
    const pass = (await exploreCell(subject({ atomic: true }), { mode: 'sampled', samples: 20 })).verdicts[0]!;
    expect(pass).toMatchObject({ verdict: 'pass', exhaustive: false });
  });

  it('records a turn that throws as a finding, once, without failing the exploration', async () => {
    const cell = await exploreCell(subject({ atomic: true, throws: true }));
    expect([...cell.findings].sort()).toEqual(['t1 threw: lost the reply', 't2 threw: lost the reply']);
    expect(cell.verdicts.find((v) => v.property === 'at-most-once')!.verdict).toBe('pass');
  });

  it('reports a violation inside a declared gap as allowed, with the gap, never as pass', async () => {
    const gap = { ...doubleResume, allowedGap: () => 'one extra effect is admitted across two clicks' };
    const cell = await exploreCell({ ...subject(), scenario: gap });
    const amo = cell.verdicts.find((v) => v.property === 'at-most-once')!;
    expect(amo).toMatchObject({ verdict: 'allowed', reason: 'one extra effect is admitted across two clicks' });
    expect(amo.counterexample!.steps).toBe(4);
  });

  it('reports a subject that cannot be built as an error with the reason', async () => {
    const broken = { ...toyAdapter(), createWorld: async () => Promise.reject(new Error('no such module')) };
    const cell = await exploreCell({ ...subject(), adapter: broken });
    expect(cell.verdicts[0]).toMatchObject({ verdict: 'error', exhaustive: false });
    expect(cell.verdicts[0]!.reason).toMatch(/^the subject could not be run: .*no such module/);
  });

  it('tells the adapter when a cell or a replay is over, even one that could not be run', async () => {
    let released = 0;
    const adapter = { ...toyAdapter(), release: async () => void released++ };
    const cell = await exploreCell({ ...subject(), adapter });
    expect(released).toBe(1);
    await replaySchedule({ ...subject(), adapter }, cell.verdicts[0]!.counterexample!.schedule);
    expect(released).toBe(2);
    await exploreCell({ ...subject(), adapter: { ...adapter, createWorld: async () => Promise.reject(new Error('no')) } });
    expect(released).toBe(3);
  });

  it('goes on from a saved checkpoint to the verdicts, counts and stories of a cell never stopped', async () => {
    for (const options of [{}, { atomic: true }, { throws: true }]) {
      const whole = await exploreCell(subject(options));
      const saved: CellCheckpoint[] = [];
      await exploreCell(subject(options), {}, { save: (take) => void saved.push(JSON.parse(JSON.stringify(take()))) });
      expect(saved.length).toBe(whole.schedules + whole.pruned - 1);
      for (const resume of [saved[0]!, saved[Math.floor(saved.length / 2)]!, saved.at(-1)!]) {
        expect(await exploreCell(subject(options), {}, { resume })).toEqual(whole);
      }
    }
    // The racy subject's failures are found early: later checkpoints carry their schedules, to replay.
    const saved: CellCheckpoint[] = [];
    await exploreCell(subject(), {}, { save: (take) => void saved.push(take()) });
    expect(saved.at(-1)!.failures.length).toBeGreaterThan(0);
  });
});
