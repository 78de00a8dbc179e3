// shown-is-recorded: every confirmation a user can act on was delivered to a live connection and is the one the
// record holds; nothing the system believes shown was dropped. The dropped-surface row of the essay: routing to the
// newest connection drops an overlapping turn's card while the system believes it was shown.
import type { History, RecordWrite } from '../history/events.js';
import { holds, violated, type PropertyResult } from './result.js';
import { describeRecord, type At } from './scan.js';

export function shownIsRecorded(history: History): PropertyResult {
  const deliveredLive = new Set<string>();
  const lastWrite = new Map<string, At<RecordWrite>>();
  for (const [index, event] of history.entries()) {
    if (event.kind === 'record-write') {
      lastWrite.set(event.approvalId, { index, event });
    } else if (event.kind === 'delivery') {
      if (!event.live) {
        return violated(
          'shown-is-recorded',
          [index],
          `${event.actor} delivered the card for ${event.approvalId} to connection ${event.connection}, where nobody ` +
            `was listening: the system believes it was shown, but it was dropped.`,
        );
      }
      deliveredLive.add(event.approvalId);
    } else if (event.kind === 'approve' && event.by === 'human') {
      if (!deliveredLive.has(event.approvalId)) {
        return violated(
          'shown-is-recorded',
          [index],
          `${event.actor} approved ${event.approvalId}, ` +
            `but no card for ${event.approvalId} had reached a live connection.`,
        );
      }
      const written = lastWrite.get(event.approvalId);
      if (written?.event.state !== 'unspent') {
        const record =
          written === undefined
            ? `the record did not hold ${event.approvalId}`
            : `the record said ${describeRecord(written.event.state, written.event.version)}`;
        return violated(
          'shown-is-recorded',
          written === undefined ? [index] : [written.index, index],
          `${event.actor} approved ${event.approvalId} while ${record}: the card the user acted on is not the one ` +
            `the record holds.`,
        );
      }
    }
  }
  return holds('shown-is-recorded');
}
