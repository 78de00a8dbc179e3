import { describe, expect, it } from 'vitest';
import type { HistoryEvent } from '../history/events.js';
import { SCENARIO_CODE } from './attribution.js';
import { CLOCK } from './clock.js';
import { judgeStep, type StepWork } from './declared.js';
import type { Access, PendingGate } from './gate.js';

const gate = (access: Access[] | undefined): PendingGate => ({
  id: 't1:2',
  turn: 't1',
  label: 'tool.call(transfer)',
  access,
  choices: 1,
  overtakes: false,
  crashable: false,
  reachedAfter: 1,
});

const WORLD: Access[] = [{ key: 'world', mode: 'write' }];
const effect: HistoryEvent = {
  kind: 'effect', actor: 't1', approvalId: 'a1', dispatch: 'd1', action: { operation: 'transfer', targets: [], params: {} }, world: 'w1', applied: true, requiresApproval: true,
};
const write: HistoryEvent = { kind: 'record-write', actor: 't1', approvalId: 'a1', version: 2, from: 'unspent', state: 'spent' };

const work = (over: Partial<StepWork>): StepWork => ({
  gate: gate(WORLD),
  release: { gate: 't1:2', choice: 0 },
  context: 't1',
  events: [],
  accessed: [],
  declared: [],
  readClock: false,
  changed: [],
  ...over,
});

describe('judgeStep: a release checked against its declaration', () => {
  it('passes a release that did what its gate declares', () => {
    const judged = judgeStep(work({ events: [{ what: effect, context: 't1' }], accessed: [{ what: { access: WORLD[0]! }, context: 't1' }], changed: ['world'] }));
    expect(judged).toEqual({ touched: [], undeclared: [] });
  });

  it('reports an event whose kind the gate does not declare: a record write after a gate that declares an effect', () => {
    const judged = judgeStep(work({ events: [{ what: write, context: 't1' }] }));
    expect(judged.undeclared).toEqual(['t1:2 tool.call(transfer) wrote the record (record-write of a1), but its gate declares world write']);
  });

  it('reports a store call and a change of contents the gate does not declare, naming the call and the key', () => {
    const judged = judgeStep(
      work({ accessed: [{ what: { access: { key: 'record:run-1', mode: 'read' }, call: 'getWorkflowRunById(run-1)' }, context: 't1' }], changed: ['record:a1'] }),
    );
    expect(judged.undeclared).toEqual([
      't1:2 tool.call(transfer) read record:run-1 (getWorkflowRunById(run-1)), but its gate declares world write',
      't1:2 tool.call(transfer) changed record:a1, but its gate declares world write',
    ]);
  });

  it('takes an access declared where it happened, and a read of the clock, as touched: covered, and ordered by', () => {
    const reRead: Access = { key: 'record:run-1', mode: 'read', exact: true };
    const judged = judgeStep(
      work({ declared: [{ what: reRead, context: 't1' }], accessed: [{ what: { access: reRead }, context: 't1' }], readClock: true }),
    );
    expect(judged).toEqual({ touched: [CLOCK, reRead], undeclared: [] });
  });

  it('takes a change the store makes in place as a write of its key, exactly', () => {
    const judged = judgeStep(work({ changed: ['record:run-2'], inPlace: (key) => key.startsWith('record:') }));
    expect(judged).toEqual({ touched: [{ key: 'record:run-2', mode: 'write', exact: true }], undeclared: [] });
  });

  it("marks a release that carried another context's work foreign instead of judging it", () => {
    const tail = judgeStep(work({ events: [{ what: write, context: SCENARIO_CODE }] }));
    expect(tail).toEqual({ touched: [], foreign: "the scenario's own code recorded record-write of a1", undeclared: [] });
    const woken = judgeStep(work({ accessed: [{ what: { access: { key: 'record:a1', mode: 'write' } }, context: 't2' }] }));
    expect(woken.foreign).toBe("t2's code touched record:a1");
  });

  it('holds a compare-and-set that recorded no write to the read it is taken for', () => {
    const cas = gate([{ key: 'guard:a1', mode: 'write', conditional: true }]);
    const read: HistoryEvent = { kind: 'record-read', actor: 't1', approvalId: 'a1', version: 2, state: 'spent' };
    expect(judgeStep(work({ gate: cas, events: [{ what: write, context: 't1' }], changed: ['guard:a1'] })).undeclared).toEqual([]);
    expect(judgeStep(work({ gate: cas, events: [{ what: read, context: 't1' }] })).undeclared).toEqual([]);
    // It lost, yet the record changed: hidden schedules, so the cell is an error.
    expect(judgeStep(work({ gate: cas, events: [{ what: read, context: 't1' }], changed: ['guard:a1'] })).undeclared).toEqual([
      't1:2 tool.call(transfer) changed guard:a1, but its gate declares guard:a1 read (a compare-and-set that recorded no write: a read)',
    ]);
  });

  it('judges neither a gate that declares nothing (dependent with everything) nor a crash', () => {
    expect(judgeStep(work({ gate: gate(undefined), events: [{ what: write, context: 't1' }] })).undeclared).toEqual([]);
    expect(judgeStep(work({ release: { gate: 't1:2', choice: 0, crash: true }, events: [{ what: write, context: SCENARIO_CODE }] }))).toEqual({
      touched: [],
      undeclared: [],
    });
  });
});
