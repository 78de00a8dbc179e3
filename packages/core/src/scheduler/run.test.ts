import { describe, expect, it } from 'vitest';
import { CLOCK } from './clock.js';
import { runSchedule, ScheduleMismatch, type Program } from './run.js';
import { formatSchedule, parseSchedule } from './schedule.js';
import { randomSelector, replaySelector } from './selectors.js';
import { turns, write } from './programs.fixtures.js';

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

  it('marks a release whose code read the clock as touching it', async () => {
    const program: Program = async (ctl) => {
      ctl.spawn('t1', async () => {
        await ctl.gate('t1', 'step1', { access: write });
        Date.now();
        await ctl.gate('t1', 'step2', { access: write });
      });
    };
    const run = await runSchedule(program, replaySelector(parseSchedule('t1:1 t1:2')));
    expect(run.steps.map((s) => s.touched)).toEqual([[CLOCK], []]);
    expect(Date.now).toBe(Date.now); // and the clock is itself again
  });

  it('goes on the same after a setup that made no choice whether it ran the setup or loaded it', async () => {
    // The user's click in the setup passes a gate; after it, the user's own event and next gate.
    const program: Program = async (ctl) => {
      await ctl.setup(async () => {
        await ctl.gate('user', 'click', { access: write });
      });
      ctl.history.emit({ kind: 'approve', actor: 'user', approvalId: 'a1', by: 'human', action: { operation: 'x', targets: [], params: {} } });
      ctl.spawn('user', () => ctl.gate('user', 'later', { access: write }).then(() => undefined));
    };
    let saved: { value: unknown } | undefined;
    const setupCache = { load: async () => saved, save: async (value: unknown) => void (saved = { value }) };
    const ran = await runSchedule(program, replaySelector(parseSchedule('user:1')), { setupCache });
    expect(saved).toBeDefined();
    const loaded = await runSchedule(program, replaySelector(parseSchedule('user:1')), { setupCache });
    expect(ran.status).toBe('complete');
    expect(loaded.history.events).toEqual(ran.history.events);
    expect(ran.history.events[0]!.gate).toBeUndefined();
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

  it('waits for native work on the thread pool (a WebCrypto job) before it calls the turns settled', async () => {
    const program: Program = async (ctl) => {
      ctl.spawn('t1', async () => {
        await ctl.gate('t1', 'before');
        // Many hashes in a row: each finishes on the thread pool, after event-loop rounds no one can count.
        for (let i = 0; i < 20; i++) await crypto.subtle.digest('SHA-256', new Uint8Array(1 << 16));
        await ctl.gate('t1', 'after');
      });
    };
    const run = await runSchedule(program, replaySelector(parseSchedule('t1:1 t1:2')), { trackNativeWork: true });
    expect(run.status).toBe('complete');
  });

  it('waits for I/O a turn awaits through external (a server that answers later) before calling it settled', async () => {
    const program: Program = async (ctl) => {
      ctl.spawn('t1', async () => {
        await ctl.gate('t1', 'before');
        // A reply that takes many event-loop rounds: a query to a database server, say.
        await ctl.external(new Promise((resolve) => setTimeout(resolve, 30)));
        await ctl.gate('t1', 'after');
      });
    };
    const run = await runSchedule(program, replaySelector(parseSchedule('t1:1 t1:2')));
    expect(run.status).toBe('complete');
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

  it("releases a turn's operations in the order it issued them, unless one may overtake", async () => {
    // t1 fires two writes without awaiting either, as LangGraph fires checkpoint writes.
    const fire = (overtakes: boolean): Program => async (ctl) => {
      ctl.spawn('t1', async () => {
        void ctl.gate('t1', 'put(cp1)');
        void ctl.gate('t1', 'put(cp2)', { overtakes });
      });
    };
    const offered: string[][] = [];
    const spy = { next: (pending: readonly { id: string }[]) => (offered.push(pending.map((g) => g.id)), { gate: pending[pending.length - 1]!.id, choice: 0 }) };
    await runSchedule(fire(false), spy);
    expect(offered[0]).toEqual(['t1:1']);
    offered.length = 0;
    await runSchedule(fire(true), spy);
    expect(offered[0]).toEqual(['t1:1', 't1:2']);
    await expect(runSchedule(fire(false), replaySelector(parseSchedule('t1:2 t1:1')))).rejects.toThrow(ScheduleMismatch);
  });

  it('lets the process die at a gate of a crashable turn: its pending gates never open', async () => {
    const program: Program = async (ctl) => {
      ctl.spawn(
        't1',
        async () => {
          await ctl.gate('t1', 'store.read(a1)');
          void ctl.gate('t1', 'store.write(a1)');
          await ctl.gate('t1', 'tool.call(transfer)');
          ctl.history.emit({ kind: 'crash', actor: 'never' });
        },
        { crashable: true },
      );
      const outcome = await ctl.join('t1');
      ctl.history.emit({ kind: 'crash', actor: `after-${outcome.status}` });
    };
    const run = await runSchedule(program, replaySelector(parseSchedule('t1:1 t1:2!')));
    expect(run.status).toBe('complete');
    expect(run.history.events.map((e) => `${e.actor}@${e.gate}`)).toEqual([
      't1@store.write(a1)',
      'after-crashed@undefined',
    ]);
    await expect(runSchedule(turns(1, 1, write), replaySelector(parseSchedule('t1:1!')))).rejects.toThrow(ScheduleMismatch);
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

