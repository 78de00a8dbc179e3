import { describe, expect, it } from 'vitest';
import { exploreExhaustive } from './exhaustive.js';
import type { Access } from './gate.js';
import { runSchedule, type Controller, type Program } from './run.js';

const READ_X: Access[] = [{ key: 'x', mode: 'read' }];
const READ_RECORD: Access[] = [{ key: 'record:a1', mode: 'read' }];

/**
 * t3 reads the record once, at a gate of its own; the rest of the program writes it once, after releases whose
 * gates declare only reads of something else. Which version t3 reads is the outcome.
 */
function program(writer: (ctl: Controller, write: () => void) => Promise<void>): Program {
  return async (ctl) => {
    let version = 0;
    const write = () => {
      version++;
      ctl.history.emit({ kind: 'record-write', actor: 'writer', approvalId: 'a1', version, from: 'unspent', state: 'spent' });
    };
    ctl.spawn('t3', async () => {
      await ctl.gate('t3', 'read(a1)', { access: READ_RECORD });
      ctl.history.emit({ kind: 'record-read', actor: 't3', approvalId: 'a1', version, state: version > 0 ? 'spent' : 'unspent' });
    });
    await writer(ctl, write);
  };
}

/** What t3 read in every run, explored with every reduction or with none. */
async function outcomes(p: Program, reduce: boolean) {
  const seen = new Set<string>();
  const foreign = new Set<string>();
  await exploreExhaustive(
    (selector) => runSchedule(p, selector),
    (run) => {
      const read = run.history.events.find((e) => e.kind === 'record-read' && e.actor === 't3');
      if (read && 'version' in read) seen.add(`v${read.version}`);
      for (const step of run.steps) if (step.foreign) foreign.add(step.foreign);
      expect(run.undeclared).toEqual([]);
    },
    { reduce },
  );
  return { seen: [...seen].sort(), foreign: [...foreign] };
}

describe("attribution: work charged to a release that is not its turn's", () => {
  it("finds the outcome a scenario's tail after a join would hide: the tail is charged to whichever release went second", async () => {
    // t1 and t2 each pass one gate that reads x: they commute. The scenario writes the record once both are done. In
    // either order the write rides on the second release, whose gate says it only read x; taken at its word, t3's
    // read would commute with it, and t3 would only ever be seen reading v1 (or only v0).
    const tail = program(async (ctl, write) => {
      for (const turn of ['t1', 't2']) ctl.spawn(turn, () => ctl.gate(turn, 'read(x)', { access: READ_X }));
      await Promise.all([ctl.join('t1'), ctl.join('t2')]);
      write();
    });
    const reduced = await outcomes(tail, true);
    expect(reduced.seen).toEqual((await outcomes(tail, false)).seen);
    expect(reduced.seen).toEqual(['v0', 'v1']);
    expect(reduced.foreign).toContain("the scenario's own code recorded record-write of a1");
  });

  it('finds the outcome a woken waiter would hide: the turn a lock is handed to runs in the release that unlocked', async () => {
    // t1 holds a lock and hands it over at its gate, which reads x; t2's gate before the wait declares the write it
    // makes as soon as it has the lock, before its next gate. Where t2 waited, the write runs in t1's release; taken
    // at its word, t1's release would commute with t3's read, and t3 reading after the write would never be run.
    const handover = program(async (ctl, write) => {
      let handOver: () => void = () => {};
      const lock = new Promise<void>((resolve) => (handOver = resolve));
      ctl.spawn('t1', async () => {
        await ctl.gate('t1', 'unlock', { access: READ_X });
        handOver();
      });
      ctl.spawn('t2', async () => {
        await ctl.gate('t2', 'lock', { access: [{ key: 'record:a1', mode: 'write' }] });
        await lock;
        write();
        await ctl.gate('t2', 'done', { access: READ_X });
      });
    });
    const reduced = await outcomes(handover, true);
    expect(reduced.seen).toEqual((await outcomes(handover, false)).seen);
    expect(reduced.seen).toEqual(['v0', 'v1']);
    expect(reduced.foreign).toContain("t2's code recorded record-write of a1");
  });

  it('charges nothing foreign to a release whose turn alone ran', async () => {
    const alone = program(async (ctl, write) => {
      ctl.spawn('t1', async () => {
        await ctl.gate('t1', 'write(a1)', { access: [{ key: 'record:a1', mode: 'write' }] });
        write();
      });
    });
    expect(await outcomes(alone, true)).toEqual({ seen: ['v0', 'v1'], foreign: [] });
  });
});
