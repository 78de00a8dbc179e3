// disclosure: every effect that happened is disclosed to the user, on the error path too. Two ways to break it: the
// user is told it did not happen after it did (a phantom failure), or is never told it happened at all. The second
// can only be judged at the end of the history, so it is checked last and its witness is the undisclosed effect.
import type { Effect, History } from '../history/events.js';
import { holds, violated, type PropertyResult } from './result.js';
import type { At } from './scan.js';

export function disclosure(history: History): PropertyResult {
  const firstApplied = new Map<string, At<Effect>>();
  const disclosed = new Set<string>();
  for (const [index, event] of history.entries()) {
    if (event.kind === 'effect' && event.applied) {
      if (!firstApplied.has(event.approvalId)) firstApplied.set(event.approvalId, { index, event });
    } else if (event.kind === 'disclosure') {
      const ran = firstApplied.get(event.approvalId);
      if (ran === undefined) continue;
      if (event.says === 'happened') disclosed.add(event.approvalId);
      if (event.says === 'not-happened') {
        return violated(
          'disclosure',
          [ran.index, index],
          `${event.actor} told the user ${event.approvalId} did not happen, but ${ran.event.actor}'s effect ` +
            `(dispatch ${ran.event.dispatch}) had already reached the world.`,
        );
      }
    }
  }
  // Maps iterate in insertion order, so the first undisclosed approval is the one whose effect came first.
  for (const [approvalId, ran] of firstApplied) {
    if (disclosed.has(approvalId)) continue;
    return violated(
      'disclosure',
      [ran.index],
      `${ran.event.actor}'s effect for ${approvalId} (dispatch ${ran.event.dispatch}) reached the world, ` +
        `but the user was never told it happened.`,
    );
  }
  return holds('disclosure');
}
