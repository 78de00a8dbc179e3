import { describe, expect, it } from 'vitest';
import { Recorder } from '../history/recorder.js';
import { TRANSFER } from '../scenarios/scenario.js';
import { CountingBackend, ToolFailed, ToolTimeout } from './backend.js';
import { Connections } from './connections.js';
import { AdversarialModel } from './model.js';

const openGate = async () => 0;
const call = (dispatch: string, idempotencyKey?: string) => ({
  approvalId: 'a1',
  dispatch,
  action: TRANSFER,
  ...(idempotencyKey === undefined ? {} : { idempotencyKey }),
});

describe('CountingBackend', () => {
  it('records one applied effect per call, against the current world', async () => {
    const history = new Recorder();
    const backend = new CountingBackend(history, openGate);
    await backend.call('t1', call('d1'));
    backend.drift();
    await backend.call('t2', call('d2'));
    expect(history.events.map((e) => e.kind === 'effect' && [e.actor, e.applied, e.world])).toEqual([
      ['t1', true, 'w1'],
      ['t2', true, 'w2'],
    ]);
  });

  it('refuses a repeated idempotency key, and applies it when told not to honour keys', async () => {
    const honouring = new Recorder();
    const backend = new CountingBackend(honouring, openGate);
    expect(await backend.call('t1', call('d1', 'k'))).toEqual({ applied: true });
    expect(await backend.call('t2', call('d2', 'k'))).toEqual({ applied: false });
    const ignoring = new Recorder();
    const careless = new CountingBackend(ignoring, openGate, { honourIdempotencyKeys: false });
    await careless.call('t1', call('d1', 'k'));
    expect(await careless.call('t2', call('d2', 'k'))).toEqual({ applied: true });
  });

  it('applies the effect and then times out, or fails, on the calls it is told to', async () => {
    const history = new Recorder();
    const backend = new CountingBackend(history, openGate, { timeoutAfterApplyOnCalls: [1], errorAfterApplyOnCalls: [2] });
    await expect(backend.call('t1', call('d1'))).rejects.toThrow(ToolTimeout);
    await expect(backend.call('t1', call('d1'))).rejects.toThrow(ToolFailed);
    expect(history.events.filter((e) => e.kind === 'effect' && e.applied)).toHaveLength(2);
  });

  it('passes every call through a gate named after the tool', async () => {
    const labels: string[] = [];
    const backend = new CountingBackend(new Recorder(), async (_turn, label) => (labels.push(label), 0));
    await backend.call('t1', call('d1'));
    expect(labels).toEqual(['tool.call(transfer)']);
  });
});

describe('AdversarialModel', () => {
  it('returns the alternative the gate chose', async () => {
    const model = new AdversarialModel(async (_t, label, options) => (label === 'model.propose' ? (options?.choices ?? 1) - 1 : 0));
    expect(await model.decide('t1', 'propose', ['a', 'b', 'c'])).toBe('c');
    await expect(model.decide('t1', 'propose', [])).rejects.toThrow(/no alternatives/);
  });
});

describe('Connections', () => {
  it('delivers to the newest open connection, and records a card sent where nobody listens as dropped', async () => {
    const history = new Recorder();
    const connections = new Connections(history, openGate);
    connections.open('c1');
    connections.open('c2');
    await connections.deliverCard('t1', 'a1', TRANSFER);
    connections.close('c2');
    await connections.deliverCard('t2', 'a1', TRANSFER, 'c2');
    await connections.disclose('t1', 'a1', 'happened');
    expect(history.events.map((e) => (e.kind === 'delivery' ? [e.connection, e.live] : e.kind))).toEqual([
      ['c2', true],
      ['c2', false],
      'disclosure',
    ]);
  });
});
