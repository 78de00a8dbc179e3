// exactly-once-delivery: with an at-least-once transport, the world applies the effect once. Unlike at-most-once,
// every applied attempt counts, retries of one dispatch included: a retry the backend applied again is the failure
// (no idempotency key stopped it); a retry the backend refused is the fix working.
import type { Effect, History } from '../history/events.js';
import { holds, violated, type PropertyResult } from './result.js';
import type { At } from './scan.js';

export function exactlyOnceDelivery(history: History): PropertyResult {
  const firstApplied = new Map<string, At<Effect>>();
  for (const [index, event] of history.entries()) {
    if (event.kind !== 'effect' || !event.applied) continue;
    const first = firstApplied.get(event.approvalId);
    if (first === undefined) {
      firstApplied.set(event.approvalId, { index, event });
      continue;
    }
    const retry = first.event.dispatch === event.dispatch ? ', a retry of the same dispatch' : '';
    return violated(
      'exactly-once-delivery',
      [first.index, index],
      `The world applied ${event.approvalId}'s effect twice: ${first.event.actor} (dispatch ${first.event.dispatch}) ` +
        `then ${event.actor} (dispatch ${event.dispatch}${retry}); nothing made the second attempt a no-op.`,
    );
  }
  return holds('exactly-once-delivery');
}
