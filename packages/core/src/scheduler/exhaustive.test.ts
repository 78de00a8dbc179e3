import { fc, it as prop } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { exploreExhaustive, type ExhaustiveOptions, type ExplorationState } from './exhaustive.js';
import { runSchedule, type Program } from './run.js';
import { countSchedules, randomProgram, randomPrograms, read, turns, write } from './programs.fixtures.js';
import { formatSchedule } from './schedule.js';

describe('exploreExhaustive', () => {
  it('runs every order of dependent releases: C(4,2) = 6 for two turns of two writes', async () => {
    const { schedules, exhausted, orders } = await countSchedules(turns(2, 2, write), true);
    expect(exhausted).toBe(true);
    expect(schedules).toBe(6);
    expect(new Set(orders).size).toBe(6);
  });

  it('runs one order of releases that commute: reads by different turns', async () => {
    const reduced = await countSchedules(turns(2, 2, read), true);
    const full = await countSchedules(turns(2, 2, read), false);
    expect(full.schedules).toBe(6);
    expect(reduced.schedules).toBe(1);
  });

  it('releases only the earliest of alike turns that have not moved: one order in 3! of three alike turns', async () => {
    const orders: string[] = [];
    const stats = await exploreExhaustive(
      (selector) => runSchedule(turns(3, 2, write), selector),
      (run) => void orders.push(formatSchedule(run.schedule)),
      { reduce: { commute: false, symmetry: true }, symmetric: ['t1', 't2', 't3'] },
    );
    // 6!/(2!2!2!) = 90 orders, six to a class of renamings: the class's member whose turns first move as t1, t2, t3.
    expect(stats).toMatchObject({ schedules: 15, exhausted: true });
    const firstMoves = (order: string) => [...new Set(order.split(' ').map((step) => step.split(':')[0]))].join(' ');
    expect(new Set(orders.map(firstMoves))).toEqual(new Set(['t1 t2 t3']));
    // Renaming every run in all six ways gives back all 90 orders.
    const perms = [['t1', 't2', 't3'], ['t1', 't3', 't2'], ['t2', 't1', 't3'], ['t2', 't3', 't1'], ['t3', 't1', 't2'], ['t3', 't2', 't1']];
    const renamed = new Set(orders.flatMap((o) => perms.map((p) => o.replace(/t(\d)/g, (_, n: string) => p[Number(n) - 1]!))));
    expect(renamed.size).toBe(90);
    expect((await countSchedules(turns(3, 2, write), false)).schedules).toBe(90);
  });

  it('never treats an undeclared gate as commuting', async () => {
    expect((await countSchedules(turns(2, 2, undefined), true)).schedules).toBe(6);
  });

  it('enumerates every adversary choice like an interleaving', async () => {
    const program: Program = async (ctl) => {
      ctl.spawn('t1', async () => {
        const a = await ctl.gate('t1', 'model.propose', { choices: 3 });
        const b = await ctl.gate('t1', 'model.reply', { choices: 2 });
        ctl.history.emit({ kind: 'crash', actor: `${a}${b}` });
      });
    };
    const { schedules, orders } = await countSchedules(program, true);
    expect(schedules).toBe(6);
    expect(orders).toContain('t1:1=2 t1:2=1');
  });

  it('explores a crash at each gate of a crashable turn, once per run', async () => {
    const program: Program = async (ctl) => {
      ctl.spawn('t1', async () => {
        for (let g = 1; g <= 3; g++) await ctl.gate('t1', `step${g}`);
      }, { crashable: true });
    };
    const { schedules, orders } = await countSchedules(program, true);
    expect(schedules).toBe(4);
    expect(orders).toEqual(['t1:1 t1:2 t1:3', 't1:1 t1:2 t1:3!', 't1:1 t1:2!', 't1:1!']);
  });

  it('runs both orders of two releases that read the clock, however their gates commute', async () => {
    // A card and a record write commute, but each turn then names something from the clock, as uuid6 does, and the
    // newest name wins: which turn drew first decides the outcome.
    let last = 0;
    const draw = () => (last = Math.max(last + 1, Date.now()));
    const program: Program = async (ctl) => {
      const names = new Map<string, number>();
      const drawing = (turn: string, key: string) =>
        ctl.spawn(turn, async () => {
          await ctl.gate(turn, 'step', { access: [{ key, mode: 'write' }] });
          names.set(turn, draw());
        });
      drawing('t1', 'card:c1');
      drawing('t2', 'record:r1');
      await Promise.all([ctl.join('t1'), ctl.join('t2')]);
      const newest = [...names].sort((a, b) => b[1] - a[1])[0]![0];
      ctl.history.emit({ kind: 'crash', actor: newest });
    };
    const newest = new Set<string>();
    await exploreExhaustive(
      (selector) => runSchedule(program, selector),
      (run) => void newest.add(run.history.events.at(-1)!.actor),
    );
    expect([...newest].sort()).toEqual(['t1', 't2']);
  });

  it('says the space was not exhausted when it stops at the budget', async () => {
    const stats = await exploreExhaustive((s) => runSchedule(turns(3, 2, write), s), () => {}, { maxSchedules: 10 });
    expect(stats).toMatchObject({ schedules: 10, exhausted: false });
  });
});

describe('exploreExhaustive, stopped and resumed', () => {
  /** Every run an exploration makes, in order, with how it ended; and where it stood after its last whole step. */
  async function explore(program: Program, options: ExhaustiveOptions, stopAt = Number.POSITIVE_INFINITY) {
    const runs: string[] = [];
    let saved: ExplorationState | undefined;
    const stats = await exploreExhaustive(
      (selector) => runSchedule(program, selector),
      (run, ending) => void runs.push(`${ending} ${formatSchedule(run.schedule)}`),
      {
        ...options,
        until: () => runs.length >= stopAt,
        // Through JSON, as a worker saves it to a file.
        checkpoint: (take) => void (saved = JSON.parse(JSON.stringify(take())) as ExplorationState),
      },
    );
    return { runs, stats, saved };
  }

  const shapes = fc.record({ crashable: fc.boolean(), sequel: fc.boolean() });
  prop.prop([randomPrograms, shapes, fc.double({ min: 0, max: 1, noNaN: true })], { numRuns: 15, seed: 7 })(
    'goes on from a saved state with exactly the runs an unstopped exploration had left',
    async (steps, shape, where) => {
      const program = randomProgram(steps, shape);
      // Symmetry is asked for here whether or not the turns are alike: what is checked is only that going on from a
      // state gives what not stopping gives.
      for (const options of [{ reduce: true }, { reduce: { sourceSets: false } }, { reduce: true, symmetric: ['t1', 't2'] }]) {
        const whole = await explore(program, options);
        expect(whole.stats.exhausted).toBe(true);
        // Killed during run k: the last state saved is the one after run k - 1, so run k runs again.
        const k = 1 + Math.floor(where * (whole.runs.length - 1));
        const before = await explore(program, options, k);
        const resume = k === 1 ? undefined : before.saved;
        const after = await explore(program, { ...options, ...(resume ? { resume } : {}) });
        expect([...whole.runs.slice(0, k - 1), ...after.runs]).toEqual(whole.runs);
        expect(after.stats).toEqual(whole.stats);
      }
    },
    60_000,
  );

  it('saves a state only between runs, with the counts so far', async () => {
    const states: ExplorationState[] = [];
    const stats = await exploreExhaustive((s) => runSchedule(turns(2, 2, write), s), () => {}, {
      checkpoint: (take) => void states.push(take()),
    });
    expect(stats.schedules).toBe(6);
    // After each run but the last, which ends the exploration.
    expect(states.map((s) => s.schedules)).toEqual([1, 2, 3, 4, 5]);
    expect(states.every((s) => s.stack.length > 0)).toBe(true);
  });
});
