// no-resurrection: once the effect has run, the durable record says the approval is spent, at every later point.
// The TLA+ invariant `eff >= 1 => log = "spent"` checked in every state: with the spend recorded after the effect it
// is violated right after the effect, in the window where a restoring turn would find the approval unspent.
import type { Effect, History, RecordWrite } from '../history/events.js';
import { holds, violated, type PropertyResult } from './result.js';
import { describeRecord, type At } from './scan.js';

export function noResurrection(history: History): PropertyResult {
  // The record's state per approval is that of its last write; before any write the record does not hold it.
  const lastWrite = new Map<string, At<RecordWrite>>();
  const lastEffect = new Map<string, At<Effect>>();
  for (const [index, event] of history.entries()) {
    if (event.kind === 'record-write') {
      lastWrite.set(event.approvalId, { index, event });
      const ran = lastEffect.get(event.approvalId);
      if (ran !== undefined && event.state !== 'spent') {
        return violated(
          'no-resurrection',
          [ran.index, index],
          `${event.actor} set ${event.approvalId}'s record back to ${describeRecord(event.state, event.version)} ` +
            `after ${ran.event.actor}'s effect (dispatch ${ran.event.dispatch}) had run.`,
        );
      }
    } else if (event.kind === 'effect' && event.applied) {
      lastEffect.set(event.approvalId, { index, event });
      const written = lastWrite.get(event.approvalId);
      if (written?.event.state !== 'spent') {
        const record =
          written === undefined
            ? `the record did not hold ${event.approvalId} at all`
            : `the record still said ${describeRecord(written.event.state, written.event.version)}`;
        return violated(
          'no-resurrection',
          written === undefined ? [index] : [written.index, index],
          `${event.actor}'s effect for ${event.approvalId} ran while ${record}.`,
        );
      }
    }
  }
  return holds('no-resurrection');
}
