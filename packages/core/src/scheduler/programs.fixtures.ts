// Small programs for the scheduler's tests.
import { fc } from '@fast-check/vitest';
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


/** One step of a random program's turn: a gate of some kind, and what the code after it does. */
export type RandomStep =
  | { readonly kind: 'read'; readonly approval: string }
  | { readonly kind: 'write'; readonly approval: string }
  | { readonly kind: 'cas'; readonly approval: string }
  | { readonly kind: 'effect'; readonly approval: string }
  | { readonly kind: 'propose'; readonly approval: string; readonly choices: number }
  | { readonly kind: 'card' | 'tell'; readonly approval: string }
  | { readonly kind: 'locked'; readonly approval: string }
  | { readonly kind: 'opaque' }
  // Application state: a log each turn may append to blindly (an upsert, a delete: it does the same whatever the log
  // holds), and read, skipping its next step when the last entry is its own.
  | { readonly kind: 'append' }
  | { readonly kind: 'peek' };

export interface RandomShape {
  /** The first turn may die at any of its gates. */
  readonly crashable?: boolean;
  /** The last turn starts only once the first has finished (or died), as `replay` and `crash-restart` do. */
  readonly sequel?: boolean;
}

/**
 * A program of turns that share a small record and a world, each gate declaring what the code after it does, as an
 * adapter would. A read that finds the approval written skips the turn's next step, as a compare-and-set that loses
 * does, so the order of releases changes what the turns go on to do, not just the order of what they record.
 */
export function randomProgram(turnSteps: readonly (readonly RandomStep[])[], shape: RandomShape = {}): Program {
  return async (ctl) => {
    // Each approval's row: who wrote it last, and how many writes it has had (its version).
    const record = new Map<string, string>();
    const writes = new Map<string, number>();
    const written = (approval: string) => writes.get(approval) ?? 0;
    let effects = 0;
    let proposals = 0;
    const log: string[] = [];
    // A lock a turn waits for outside any gate, woken by the holder's unlock, as the reference runtime's is.
    let held = false;
    const waiting: (() => void)[] = [];
    const acquire = () => (held ? new Promise<void>((resolve) => waiting.push(resolve)) : ((held = true), Promise.resolve()));
    const unlock = () => {
      const next = waiting.shift();
      if (next) next();
      else held = false;
    };
    const spawnTurn = (steps: readonly RandomStep[], t: number) => {
      const turn = `t${t + 1}`;
      ctl.spawn(turn, async () => {
        for (let i = 0; i < steps.length; i++) {
          const step = steps[i]!;
          if (step.kind === 'opaque') {
            await ctl.gate(turn, 'opaque');
            ctl.history.emit({ kind: 'crash', actor: turn });
          } else if (step.kind === 'append') {
            await ctl.gate(turn, 'append', { access: [{ key: 'app:log', mode: 'write', blind: true }] });
            log.push(turn);
          } else if (step.kind === 'peek') {
            await ctl.gate(turn, 'peek', { access: [{ key: 'app:log', mode: 'read' }] });
            if (log.at(-1) === turn) i++;
          } else if (step.kind === 'read') {
            await ctl.gate(turn, `read(${step.approval})`, { access: [{ key: `record:${step.approval}`, mode: 'read' }] });
            const state = record.has(step.approval) ? 'spent' : 'unspent';
            ctl.history.emit({ kind: 'record-read', actor: turn, approvalId: step.approval, version: written(step.approval), state });
            if (state === 'spent') i++;
          } else if (step.kind === 'write') {
            await ctl.gate(turn, `write(${step.approval})`, { access: [{ key: `record:${step.approval}`, mode: 'write' }] });
            const from = record.has(step.approval) ? 'spent' : 'unspent';
            record.set(step.approval, turn);
            writes.set(step.approval, written(step.approval) + 1);
            ctl.history.emit({ kind: 'record-write', actor: turn, approvalId: step.approval, version: written(step.approval), from, state: 'spent' });
          } else if (step.kind === 'cas') {
            // A spend by compare-and-set, as the guard's: it writes only if nobody has, and one that lost only read.
            await ctl.gate(turn, `cas(${step.approval})`, { access: [{ key: `record:${step.approval}`, mode: 'write', conditional: true }] });
            if (record.has(step.approval)) {
              ctl.history.emit({ kind: 'record-read', actor: turn, approvalId: step.approval, version: written(step.approval), state: 'spent' });
              i++;
            } else {
              record.set(step.approval, turn);
              writes.set(step.approval, 1);
              ctl.history.emit({ kind: 'record-write', actor: turn, approvalId: step.approval, version: 1, from: 'unspent', state: 'spent', conditional: true });
            }
          } else if (step.kind === 'effect') {
            await ctl.gate(turn, 'tool.call', { access: [{ key: 'world', mode: 'write' }] });
            effects++;
            const action = { operation: 'transfer', targets: [String(effects)], params: {} };
            ctl.history.emit({
              kind: 'effect', actor: turn, approvalId: step.approval, dispatch: `${turn}/${i}`, action, world: 'w1', applied: true, requiresApproval: true,
            });
          } else if (step.kind === 'propose') {
            const access: Access[] = [{ key: 'fingerprint', mode: 'read' }, { key: 'proposal', mode: 'write' }];
            const choice = await ctl.gate(turn, 'model.propose', { access, choices: step.choices });
            proposals++;
            const action = { operation: 'transfer', targets: [`${choice}/${proposals}`], params: {} };
            ctl.history.emit({ kind: 'proposed', actor: turn, approvalId: step.approval, action, world: 'w1' });
          } else if (step.kind === 'card') {
            await ctl.gate(turn, 'client.card', { access: [{ key: 'card', mode: 'write' }] });
            ctl.history.emit({ kind: 'delivery', actor: turn, approvalId: step.approval, connection: 'c1', live: true, action: { operation: 'x', targets: [], params: {} } });
          } else if (step.kind === 'locked') {
            const lock: Access[] = [{ key: 'lock:m', mode: 'write' }];
            await ctl.gate(turn, 'lock', { access: lock });
            await acquire();
            await ctl.gate(turn, `write(${step.approval})`, { access: [{ key: `record:${step.approval}`, mode: 'write' }] });
            const from = record.has(step.approval) ? 'spent' : 'unspent';
            record.set(step.approval, turn);
            writes.set(step.approval, written(step.approval) + 1);
            ctl.history.emit({ kind: 'record-write', actor: turn, approvalId: step.approval, version: written(step.approval), from, state: 'spent' });
            await ctl.gate(turn, 'unlock', { access: lock });
            unlock();
          } else {
            await ctl.gate(turn, 'client.tell', { access: [{ key: 'tell', mode: 'write' }] });
            ctl.history.emit({ kind: 'disclosure', actor: turn, approvalId: step.approval, says: 'happened' });
          }
        }
      }, { crashable: shape.crashable === true && t === 0 });
    };
    const last = turnSteps.length - 1;
    turnSteps.forEach((steps, t) => (shape.sequel && t === last ? undefined : spawnTurn(steps, t)));
    if (shape.sequel) {
      await ctl.join('t1');
      spawnTurn(turnSteps[last]!, last);
    }
  };
}

const approval = fc.constantFrom('a1', 'a2');
const randomStep: fc.Arbitrary<RandomStep> = fc.oneof(
  fc.record({ kind: fc.constant('read' as const), approval }),
  fc.record({ kind: fc.constant('write' as const), approval }),
  fc.record({ kind: fc.constant('cas' as const), approval }),
  fc.record({ kind: fc.constant('effect' as const), approval }),
  fc.record({ kind: fc.constant('propose' as const), approval, choices: fc.integer({ min: 1, max: 2 }) }),
  fc.record({ kind: fc.constantFrom('card' as const, 'tell' as const), approval }),
  fc.record({ kind: fc.constant('locked' as const), approval }),
  fc.constant({ kind: 'opaque' as const }),
);
// With application state too: blind appends, and reads that act on them.
const withAppends: fc.Arbitrary<RandomStep> = fc.oneof(
  { weight: 2, arbitrary: fc.constantFrom({ kind: 'append' as const }, { kind: 'peek' as const }) },
  { weight: 3, arbitrary: randomStep },
);
export const randomProgramsWithAppends = fc
  .array(fc.array(withAppends, { minLength: 1, maxLength: 3 }), { minLength: 2, maxLength: 3 })
  .filter((turns) => turns.flat().length <= 7);

// At most seven releases in all: every schedule of them is a few thousand runs at most.
export const randomPrograms = fc
  .array(fc.array(randomStep, { minLength: 1, maxLength: 3 }), { minLength: 2, maxLength: 3 })
  .filter((turns) => turns.flat().length <= 7);
