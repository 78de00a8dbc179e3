// at-most-once: for one approval, the approved effect reaches the world at most once. What counts is the runtime's
// decision to call the tool (the dispatch id) that the world applied: a transport retry repeats its dispatch id and is
// exactly-once-delivery's business, and an effect the backend refused (a duplicate idempotency key) did not happen.
import type { Effect, History, RecordRead } from '../history/events.js';
import { holds, violated, type PropertyResult } from './result.js';
import { lastBefore, type At } from './scan.js';

export function atMostOnce(history: History): PropertyResult {
  // Per approval: the first applied effect of each distinct dispatch.
  const dispatches = new Map<string, Map<string, At<Effect>>>();
  for (const [index, event] of history.entries()) {
    if (event.kind !== 'effect' || !event.applied) continue;
    const seen = dispatches.get(event.approvalId) ?? new Map<string, At<Effect>>();
    dispatches.set(event.approvalId, seen);
    if (seen.has(event.dispatch)) continue;
    const [first] = seen.values();
    if (first !== undefined) return twice(history, first, { index, event });
    seen.set(event.dispatch, { index, event });
  }
  return holds('at-most-once');
}

function twice(history: History, first: At<Effect>, second: At<Effect>): PropertyResult {
  const approvalId = first.event.approvalId;
  // What each actor had read of this approval before its effect: the view it acted on.
  const viewOf = ({ index, event }: At<Effect>) =>
    lastBefore(history, index, 'record-read', (r) => r.actor === event.actor && r.approvalId === approvalId);
  const reads = [viewOf(first), viewOf(second)];
  const witness = [first.index, second.index, ...reads.flatMap((read) => (read ? [read.index] : []))];
  const who = (e: At<Effect>) => `${e.event.actor} (dispatch ${e.event.dispatch})`;
  return violated(
    'at-most-once',
    witness,
    `${approvalId}'s effect reached the world twice: ${who(first)} then ${who(second)}; ${whatTheyRead(
      [first, second],
      reads,
    )}.`,
  );
}

function whatTheyRead(effects: readonly At<Effect>[], reads: readonly (At<RecordRead> | undefined)[]): string {
  const [a, b] = reads;
  if (a !== undefined && b !== undefined && a.event.state === b.event.state) {
    const versions =
      a.event.version === b.event.version ? `v${a.event.version}` : `v${a.event.version} and v${b.event.version}`;
    return `both had read it ${a.event.state} (${versions})`;
  }
  return effects
    .map((effect, i) => {
      const read = reads[i];
      return read === undefined
        ? `${effect.event.actor} had not read it`
        : `${effect.event.actor} had read it ${read.event.state} (v${read.event.version})`;
    })
    .join(', ');
}
