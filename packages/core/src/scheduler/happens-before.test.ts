import { fc, it as prop } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { exploreExhaustive, type Reductions } from './exhaustive.js';
import type { Access, Released } from './gate.js';
import { EVERY_PROPERTY, type Scope } from './commute.js';
import { HappensBefore } from './happens-before.js';
import { randomProgram, randomPrograms as programs, type RandomShape, type RandomStep } from './programs.fixtures.js';
import { runSchedule, type ScheduleRun } from './run.js';

function step(turn: string, n: number, access: Access[] | undefined, reachedAfter = 0): Released {
  return {
    gate: { id: `${turn}:${n}`, turn, label: 'x', access, choices: 1, overtakes: false, crashable: false, reachedAfter },
    release: { gate: `${turn}:${n}`, choice: 0 },
    produced: [],
  };
}
const w: Access[] = [{ key: 'record:a1', mode: 'write' }];
const r: Access[] = [{ key: 'record:a1', mode: 'read' }];

describe('HappensBefore', () => {
  it('orders a turn after itself and conflicting releases after each other, and nothing else', () => {
    // t1 reads, t2 reads, t1 writes, t2 writes.
    const hb = new HappensBefore([step('t1', 1, r), step('t2', 1, r), step('t1', 2, w), step('t2', 2, w)], EVERY_PROPERTY);
    expect(hb.ordered(0, 1)).toBe(false);
    expect(hb.ordered(0, 2)).toBe(true);
    expect(hb.ordered(1, 2)).toBe(true);
    expect(hb.ordered(0, 3)).toBe(true);
    expect(hb.closure([1])).toEqual([1]);
    expect(hb.closure([2])).toEqual([0, 1, 2]);
  });

  it('orders a release after the one that let its turn reach the gate', () => {
    const hb = new HappensBefore([step('t1', 1, r), step('t2', 1, r, 1)], EVERY_PROPERTY);
    expect(hb.ordered(0, 1)).toBe(true);
    expect(hb.racesOf(1)).toEqual([]);
  });

  it('orders everything without commuting', () => {
    const hb = new HappensBefore([step('t1', 1, r), step('t2', 1, r)], undefined);
    expect(hb.closure([1])).toEqual([0, 1]);
  });

  it("finds a race and the turns that reverse it: those that can go first without anything of theirs before", () => {
    // t1 writes, t2 reads (a race with the write), then t3 reads.
    const hb = new HappensBefore([step('t1', 1, w), step('t3', 1, [{ key: 'card', mode: 'write' }]), step('t2', 1, r)], EVERY_PROPERTY);
    expect(hb.racesOf(2)).toEqual([0]);
    expect(hb.initials(0, 2)).toEqual(['t3', 't2']);
  });
});

/**
 * A run as its class of equivalent schedules: its releases in the smallest order happens-before allows, each with what
 * it recorded. Two schedules that differ only in the order of commuting releases read the same.
 */
function canonical(run: ScheduleRun, scope: Scope): string {
  const hb = new HappensBefore(run.steps, scope);
  const key = (i: number) => {
    const { release, produced } = run.steps[i]!;
    return `${release.gate}=${release.choice}${release.crash ? '!' : ''}${JSON.stringify(produced)}`;
  };
  const placed: number[] = [];
  while (placed.length < run.steps.length) {
    const ready = run.steps
      .map((_, i) => i)
      .filter((i) => !placed.includes(i) && run.steps.every((_, j) => !hb.ordered(j, i) || placed.includes(j)));
    placed.push(ready.sort((a, b) => (key(a) < key(b) ? -1 : 1))[0]!);
  }
  return placed.map(key).join(' ');
}

async function classes(steps: readonly (readonly RandomStep[])[], shape: RandomShape, reduce: boolean | Reductions, scope: Scope) {
  const found: string[] = [];
  const program = randomProgram(steps, shape);
  const stats = await exploreExhaustive(
    (selector) => runSchedule(program, selector),
    (run, ending) => void (ending === 'complete' && found.push(canonical(run, scope))),
    { reduce, scope },
  );
  return { found, stats };
}

describe('exploration with commuting releases', () => {
  const shapes = fc.record({ crashable: fc.boolean(), sequel: fc.boolean() });
  prop.prop([programs, shapes], { numRuns: 20, seed: 14 })(
    'explores every class of equivalent schedules that exploring every schedule finds, each once',
    async (steps, shape) => {
      for (const scope of [EVERY_PROPERTY, { recordHistory: false }]) {
        const all = new Set((await classes(steps, shape, false, scope)).found);
        for (const reduce of [{ sourceSets: false }, true] as const) {
          const { found, stats } = await classes(steps, shape, reduce, scope);
          expect(stats.exhausted).toBe(true);
          expect(new Set(found)).toEqual(all);
          expect(found.length).toBe(new Set(found).size);
        }
      }
    },
    60_000,
  );
});
