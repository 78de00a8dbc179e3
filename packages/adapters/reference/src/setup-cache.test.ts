// The explorer runs a cell's setup once and restores it for every later schedule: the histories must be the same as
// if the setup had run each time.
import { describe, expect, it } from 'vitest';
import { replaySchedule, SCENARIOS } from '@approval-conformance/core';
import { referenceAdapter, STORES } from './adapter.js';
import { skipStore } from '@approval-conformance/testkit';

describe.each(STORES)('the setup snapshot on the %s store', (store) => {
  it.skipIf(skipStore(store))('gives the history a full run gives', async () => {
    const schedule = 't1:1 t2:1 t1:2 t2:2 t1:3 t2:3 t1:4 t2:4';
    const subject = () => ({ adapter: referenceAdapter, wiring: 'before-fresh', store, scenario: SCENARIOS.get('double-resume')! });
    const warm = subject();
    const first = await replaySchedule(warm, schedule); // runs the setup and saves it
    const restored = await replaySchedule(warm, schedule); // restores it
    const fresh = await replaySchedule(subject(), schedule); // a new subject: runs the setup again
    expect(restored.history).toEqual(first.history);
    expect(fresh.history).toEqual(first.history);
    expect(first.story.filter((line) => line.includes('effect applied'))).toHaveLength(2);
  });
});
