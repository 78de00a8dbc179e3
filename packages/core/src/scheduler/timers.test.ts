import { describe, expect, it } from 'vitest';
import { runSchedule, type Program } from './run.js';
import { parseSchedule } from './schedule.js';
import { replaySelector } from './selectors.js';
import { write } from './programs.fixtures.js';

// t2 polls until t1 has written, sleeping 25 ms between reads, for at most 2 s: the shape of Mastra's resume.
const poller = (wrote: { done: boolean }, woke: number[]): Program => async (ctl) => {
  ctl.spawn('t1', async () => {
    await ctl.gate('t1', 'write', { access: write });
    wrote.done = true;
  });
  ctl.spawn('t2', async () => {
    await ctl.gate('t2', 'read', { access: write });
    const deadline = Date.now() + 2000;
    while (!wrote.done && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 25));
      woke.push(Date.now());
    }
    await ctl.gate('t2', wrote.done ? 'saw-write' : 'gave-up', { access: write });
  });
};

describe('fake timers', () => {
  it('read whole milliseconds from Date.now, as the real clock does, after a timer set for a fraction of one', async () => {
    const seen: number[] = [];
    const program: Program = async (ctl) => {
      ctl.spawn('t1', async () => {
        await new Promise((resolve) => setTimeout(resolve, 2.5));
        seen.push(Date.now());
        await new Promise((resolve) => setTimeout(resolve, 0.75));
        seen.push(Date.now());
      });
    };
    const run = await runSchedule(program, replaySelector(parseSchedule('')), { fakeTimers: true });
    expect(run.status).toBe('complete');
    expect(seen).toEqual([Date.UTC(2026, 0, 1) + 2, Date.UTC(2026, 0, 1) + 3]);
  });

  it('fire a sleeping turn only when every other turn is blocked, on a clock that moves only then', async () => {
    const woke: number[] = [];
    const run = await runSchedule(poller({ done: false }, woke), replaySelector(parseSchedule('t2:1 t1:1 t2:2')), { fakeTimers: true });
    expect(run.status).toBe('complete');
    expect(run.steps.map((s) => s.gate.label)).toEqual(['read', 'write', 'saw-write']);
    // One sleep, on a clock that starts at a fixed instant; outside the run the real clock is back.
    expect(woke).toEqual([Date.UTC(2026, 0, 1) + 25]);
    expect(Date.now()).not.toBe(Date.UTC(2026, 0, 1) + 25);
  });

  it('let a turn whose wait never ends sleep to its deadline, deterministically', async () => {
    const woke: number[] = [];
    // t1 never runs: the schedule stops after t2 gives up.
    const program: Program = async (ctl) => {
      ctl.spawn('t2', async () => {
        const deadline = Date.now() + 2000;
        while (Date.now() < deadline) {
          await new Promise((resolve) => setTimeout(resolve, 25));
          woke.push(Date.now());
        }
        await ctl.gate('t2', 'gave-up', { access: write });
      });
    };
    const run = await runSchedule(program, replaySelector(parseSchedule('t2:1')), { fakeTimers: true });
    expect(run.status).toBe('complete');
    expect(woke).toHaveLength(80);
    expect(woke[79]! - woke[0]!).toBe(79 * 25);
  });
});

describe('elapse', () => {
  it("lets the scenario's own code wait out the subject's timers, which fire first, in the order they fall due", async () => {
    const fired: string[] = [];
    const program: Program = async (ctl) => {
      // A runtime's timeout, armed in a turn's code, and the scenario waiting past it.
      ctl.spawn('t1', async () => {
        await new Promise((resolve) => setTimeout(resolve, 60_000));
        fired.push(`timeout at ${Date.now() - Date.UTC(2026, 0, 1)}`);
        await ctl.gate('t1', 'gave-up', { access: write });
      });
      await ctl.elapse(61_000);
      fired.push(`scenario at ${Date.now() - Date.UTC(2026, 0, 1)}`);
    };
    const run = await runSchedule(program, replaySelector(parseSchedule('t1:1')), { fakeTimers: true });
    expect(run.status).toBe('complete');
    expect(fired).toEqual(['timeout at 60000', 'scenario at 61000']);
  });

  it('refuses to wait in real time: without a virtual clock the program fails at once', async () => {
    const program: Program = async (ctl) => ctl.elapse(60_000);
    await expect(runSchedule(program, replaySelector(parseSchedule('')))).rejects.toThrow(/elapse needs a virtual clock/);
  });
});
