import { describe, expect, it } from 'vitest';
import { Recorder } from '../history/recorder.js';
import type { RecordState } from '../history/events.js';
import { GatedAppRecord } from './gated-app-record.js';
import { memoryTextBacking } from './text-backing.js';

// A record whose value is the list of approvals spent; a1 is always known and unspent until listed.
const states = (spent: string[] | undefined) => {
  const found = new Map<string, RecordState>();
  if (spent) for (const id of ['a1', ...spent]) found.set(id, spent.includes(id) ? 'spent' : 'unspent');
  return found;
};

function open(report = true) {
  const history = new Recorder();
  const gates: string[] = [];
  const gate = async (turn: string, label: string) => (gates.push(`${turn} ${label}`), 0);
  const spec = { name: 'chat', id: 'c1', encode: JSON.stringify, decode: (t: string) => JSON.parse(t) as string[], states };
  return { history, gates, record: new GatedAppRecord(memoryTextBacking, spec, { gate, history, report }) };
}

describe('GatedAppRecord', () => {
  it('gates each load and save, and reports what the stored value says about each approval', async () => {
    const { history, gates, record } = open();
    expect(await record.load('t1')).toBeUndefined();
    await record.save('t1', []);
    await record.save('t2', ['a1']);
    await record.load('t3');
    expect(gates).toEqual(['t1 chat.load(c1)', 't1 chat.save(c1)', 't2 chat.save(c1)', 't3 chat.load(c1)']);
    expect(history.events.map((e) => [e.kind, e.actor, 'state' in e ? e.state : undefined])).toEqual([
      ['record-write', 't1', 'unspent'],
      ['record-write', 't2', 'spent'],
      ['record-read', 't3', 'spent'],
    ]);
    expect(record.inspect('a1')).toEqual({ state: 'spent', version: 2 });
  });

  it('reads and writes in one gate on update, the write reported as a compare-and-set on what was read', async () => {
    const { history, gates, record } = open();
    await record.save('t1', []);
    const first = await record.update('t2', 'take', (spent) => (spent?.includes('a1') ? { result: false } : { value: [...(spent ?? []), 'a1'], result: true }));
    const second = await record.update('t3', 'take', (spent) => (spent?.includes('a1') ? { result: false } : { value: [...(spent ?? []), 'a1'], result: true }));
    expect([first, second]).toEqual([true, false]);
    expect(gates).toEqual(['t1 chat.save(c1)', 't2 chat.take(c1)', 't3 chat.take(c1)']);
    expect(history.events.slice(1).map((e) => [e.kind, e.actor, 'state' in e ? e.state : undefined, 'conditional' in e ? e.conditional : undefined])).toEqual([
      ['record-read', 't2', 'unspent', undefined],
      ['record-write', 't2', 'spent', true],
      ['record-read', 't3', 'spent', undefined],
    ]);
  });

  it('reports nothing when the record is app state (guarded), and declares the app key', async () => {
    const { history, record } = open(false);
    await record.save('t1', ['a1']);
    await record.load('t1');
    expect(history.events).toEqual([]);
    expect(record.key).toBe('app:c1');
  });

  it('keeps its bookkeeping across a restart (memory forgets the value) and puts a snapshot back', async () => {
    const { record } = open();
    await record.save('t1', []);
    const snapshot = structuredClone(record.snapshot());
    await record.save('t1', ['a1']);
    record.restart();
    expect(record.peek()).toBeUndefined();
    expect(record.version).toBe(2);
    record.restore(snapshot);
    expect(record.peek()).toEqual([]);
    expect(record.inspect('a1')).toEqual({ state: 'unspent', version: 1 });
  });
});
