// The clock is shared state that no gate declares. Code that reads it may order what it makes by the value it got:
// LangGraph names each checkpoint with a uuid6 drawn from Date.now (a counter breaks ties within a millisecond), and
// its latest checkpoint is the one with the largest id, so which of two turns drew first decides which checkpoint
// the next reader resumes from. A release whose code read the clock therefore touched `sequence:clock`, and two
// such releases never commute (`commute.ts`). Only Date.now is watched: it is what uuid v1, v6 and v7 read. A
// reading the suite itself makes inside a step (it makes none) would only cost reduction, never soundness.
import type { Access } from './gate.js';
import { fakeNow } from './timers.js';

export const CLOCK: Access = { key: 'sequence:clock', mode: 'write' };

const realNow = Date.now;
let reads = 0;
let users = 0;
// A virtual clock (`timers.ts`) moves only between releases, when a timer fires: two releases that read it get the
// same values in either order, so its readings are not counted.
const watchedNow = () => {
  const fake = fakeNow();
  if (fake !== undefined) return fake;
  reads++;
  return realNow();
};

/** Start counting reads of Date.now (counted: nested runs share one watch). Returns the stop function. */
export function watchClock(): () => void {
  if (users++ === 0) Date.now = watchedNow;
  return () => {
    if (--users === 0) Date.now = realNow;
  };
}

/** How many times Date.now has been read while watched. */
export const clockReads = (): number => reads;
