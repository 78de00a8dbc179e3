// The essay's canonical histories, as a real-code runtime would record them. Each starts from the same setup (the
// paused turn t0 proposes a1, records it unspent at v1, shows the card on a live connection, and the user approves),
// then plays the model's interleaving of two resuming turns, t1 and t2, step for step. A check that uses the snapshot
// leaves no event (it touches no record); a check that re-reads the record is a read.
import { approve, cas, deliver, disclose, effect, proposed, read, spend, write } from './build.fixtures.js';
import type { History } from './events.js';

/** Indices 0–3: the approval exists, unspent at v1, and a human approved exactly what it holds. */
export const SETUP: History = [
  proposed('t0', 'a1'),
  write('t0', 'a1', 1, 'absent', 'unspent'),
  deliver('t0', 'a1', 'c1'),
  approve('a1'),
];

/**
 * The 7-step double effect (spend after the effect, checks against the snapshot): init, t1 restore, t2 restore,
 * t1 check, t2 check, t1 effect, t2 effect. Both turns act on a snapshot that says unspent; the receipts come last.
 */
export const DOUBLE_EFFECT: History = [
  ...SETUP,
  read('t1', 'a1', 1, 'unspent'), // 4: t1 restore
  read('t2', 'a1', 1, 'unspent'), // 5: t2 restore
  effect('t1', 'a1', 'd1'), // 6: t1 effect (after its snapshot check)
  effect('t2', 'a1', 'd2'), // 7: t2 effect (after its snapshot check)
  spend('t1', 'a1', 2), // 8: t1 record
  write('t2', 'a1', 3, 'spent', 'spent'), // 9: t2 record
  disclose('t1', 'a1'), // 10
  disclose('t2', 'a1'), // 11
];

/**
 * The 9-step lost update (spend before the effect, checks re-read the record): init, t1 restore, t2 restore,
 * t1 check, t2 check, t1 spend, t1 effect, t2 spend, t2 effect. Both read unspent, both write spent, both act.
 */
export const LOST_UPDATE: History = [
  ...SETUP,
  read('t1', 'a1', 1, 'unspent'), // 4: t1 restore
  read('t2', 'a1', 1, 'unspent'), // 5: t2 restore
  read('t1', 'a1', 1, 'unspent'), // 6: t1 check, re-reading the record
  read('t2', 'a1', 1, 'unspent'), // 7: t2 check, re-reading the record
  spend('t1', 'a1', 2), // 8: t1 spend
  effect('t1', 'a1', 'd1'), // 9: t1 effect
  write('t2', 'a1', 3, 'spent', 'spent'), // 10: t2 spend — it already was
  effect('t2', 'a1', 'd2'), // 11: t2 effect anyway
  disclose('t1', 'a1'), // 12
  disclose('t2', 'a1'), // 13
];

/**
 * The compare-and-set design, where every property holds: both read unspent, t1's compare-and-set wins, t2's finds
 * the record spent and stops (it wrote nothing: a failed compare-and-set reads as a read of what it found).
 */
export const CAS_HOLDS: History = [
  ...SETUP,
  read('t1', 'a1', 1, 'unspent'), // 4: t1 restore
  read('t2', 'a1', 1, 'unspent'), // 5: t2 restore
  cas('t1', 'a1', 2, 'unspent', 'spent'), // 6: t1 check-and-spend
  read('t2', 'a1', 2, 'spent'), // 7: t2's compare-and-set fails: the record says spent
  effect('t1', 'a1', 'd1'), // 8: t1 effect
  disclose('t1', 'a1'), // 9
];
