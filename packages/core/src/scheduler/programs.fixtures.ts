// Small programs for the scheduler's tests.
import type { Access } from './gate.js';
import { exploreExhaustive } from './exhaustive.js';
import { runSchedule, type Program } from './run.js';
import { formatSchedule } from './schedule.js';

export const write: Access[] = [{ key: 'x', mode: 'write' }];
export const read: Access[] = [{ key: 'x', mode: 'read' }];

/** Turns t1..tn, each passing `gates` gates with the given access, recording one event per release. */
export function turns(n: number, gates: number, access: Access[] | undefined): Program {
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

export async function countSchedules(program: Program, reduce: boolean) {
  const orders: string[] = [];
  const stats = await exploreExhaustive(
    (selector) => runSchedule(program, selector),
    (run) => void (run.status === 'complete' && orders.push(formatSchedule(run.schedule))),
    { reduce },
  );
  return { ...stats, orders };
}

