import { describe, expect, it } from 'vitest';
import { exploreExhaustive } from './exhaustive.js';
import type { Access } from './gate.js';
import { runSchedule, ScheduleMismatch, type Program } from './run.js';
import { formatSchedule, parseSchedule } from './schedule.js';
import { randomSelector, replaySelector } from './selectors.js';

const write: Access[] = [{ key: 'x', mode: 'write' }];
const read: Access[] = [{ key: 'x', mode: 'read' }];

/** Turns t1..tn, each passing `gates` gates with the given access, recording one event per release. */
function turns(n: number, gates: number, access: Access[] | undefined): Program {
  return async (ctl) => {
    for (let t = 1; t <= n; t++) {
      const turn = `t${t}`;
      ctl.spawn(turn, async () => {
        for (let g = 1; g <= gates; g++) {
          await ctl.gate(turn, `step${g}`, access === undefined ? {} : { access });
          ctl.history.emit({ kind: 'crash', actor: turn });
        }
      });
    }
  };
}

async function countSchedules(program: Program, reduce: boolean) {
  const orders: string[] = [];
  const stats = await exploreExhaustive(
    (selector) => runSchedule(program, selector),
    (run) => void (run.status === 'complete' && orders.push(formatSchedule(run.schedule))),
    { reduce },
  );
  return { ...stats, orders };
}

describe('runSchedule', () => {
  it('releases gates in the order the selector names, and records it as the schedule', async () => {
    const run = await runSchedule(turns(2, 2, write), replaySelector(parseSchedule('t2:1 t1:1 t1:2 t2:2')));
    expect(run.status).toBe('complete');
    expect(formatSchedule(run.schedule)).toBe('t2:1 t1:1 t1:2 t2:2');
    expect(run.history.events.map((e) => `${e.actor}@${e.gate}`)).toEqual([
      't2@step1',
      't1@step1',
      't1@step2',
      't2@step2',
    ]);
    expect(run.history.releasesAt).toEqual([1, 2, 3, 4]);
  });

  it('stops when a replayed schedule runs out, leaving the rest unreleased', async () => {
    const run = await runSchedule(turns(2, 2, write), replaySelector(parseSchedule('t1:1')));
    expect(run.status).toBe('stopped');
    expect(run.history.events).toHaveLength(1);
  });

  it('fails with a mismatch when a schedule names a gate that is not pending', async () => {
    await expect(runSchedule(turns(1, 1, write), replaySelector(parseSchedule('t9:1')))).rejects.toThrow(
      ScheduleMismatch,
    );
  });

  it('reports a timeout naming the turn and its last gate when a turn blocks outside any gate', async () => {
    const program: Program = async (ctl) => {
      ctl.spawn('t1', async () => {
        await ctl.gate('t1', 'store.read(a1)');
        await new Promise(() => {}); // never settles
      });
    };
    const run = await runSchedule(program, randomSelector(1));
    expect(run.status).toBe('timeout');
    expect(run.reason).toBe('t1 (last gate: store.read(a1)) neither reached a gate nor finished');
  });

  it('reports a timeout when a schedule goes past its release budget', async () => {
    const program: Program = async (ctl) => {
      ctl.spawn('t1', async () => {
        for (;;) await ctl.gate('t1', 'spin');
      });
    };
    const run = await runSchedule(program, randomSelector(1), { maxReleases: 50 });
    expect(run.status).toBe('timeout');
    expect(run.reason).toMatch(/past 50 releases/);
  });

  it('records a turn that throws as a finding and goes on', async () => {
    const program: Program = async (ctl) => {
      ctl.spawn('t1', async () => {
        await ctl.gate('t1', 'tool.call(transfer)');
        throw new Error('backend exploded');
      });
      ctl.spawn('t2', async () => void (await ctl.gate('t2', 'store.read(a1)')));
    };
    const run = await runSchedule(program, randomSelector(7));
    expect(run.status).toBe('complete');
    expect(run.turnErrors).toEqual([{ turn: 't1', status: 'threw', message: 'backend exploded' }]);
  });

  it('counts a turn as finished only when it has returned and has no gate pending', async () => {
    // t1 fires a write without awaiting it, as LangGraph does with checkpoint writes, and returns.
    const program: Program = async (ctl) => {
      ctl.spawn('t1', async () => {
        void ctl.gate('t1', 'store.put').then(() => ctl.history.emit({ kind: 'crash', actor: 't1' }));
      });
      const outcome = await ctl.join('t1');
      ctl.history.emit({ kind: 'crash', actor: `joined-${outcome.status}` });
    };
    const run = await runSchedule(program, randomSelector(3));
    expect(run.history.events.map((e) => e.actor)).toEqual(['t1', 'joined-returned']);
  });

  it('releases setup gates without a choice, but still lets the adversary choose inside setup', async () => {
    const program: Program = async (ctl) => {
      const pick = await ctl.setup(async () => {
        await ctl.gate('t0', 'store.write');
        return ctl.gate('t0', 'model.propose', { choices: 3 });
      });
      ctl.history.emit({ kind: 'crash', actor: `picked-${pick}` });
    };
    const run = await runSchedule(program, replaySelector(parseSchedule('t0:2=2')));
    expect(run.status).toBe('complete');
    expect(run.history.events[0]!.actor).toBe('picked-2');
  });
});

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

  it('says the space was not exhausted when it stops at the budget', async () => {
    const stats = await exploreExhaustive((s) => runSchedule(turns(3, 2, write), s), () => {}, { maxSchedules: 10 });
    expect(stats).toMatchObject({ schedules: 10, exhausted: false });
  });
});

describe('schedule strings', () => {
  it('round-trip', () => {
    const text = 't1:1 t2:1 t1:2=1 worker-2:10';
    expect(formatSchedule(parseSchedule(text))).toBe(text);
  });

  it('reject a token that is not a release, naming it', () => {
    expect(() => parseSchedule('t1:1 banana')).toThrow(/'banana' is not a release/);
  });
});
