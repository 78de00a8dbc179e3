// integrity: an approval no human gave, or one whose action was altered by whoever holds the state (a client
// transcript, a serialized run state), is not executed. Any executed effect of a tool that needs approval counts,
// applied or refused by the backend: the runtime acted on the approval either way.
import { actionsEqual, formatAction } from '../history/action.js';
import type { Approve, History } from '../history/events.js';
import { holds, violated, type PropertyResult } from './result.js';
import { allBefore, lastBefore, type At } from './scan.js';

export function integrity(history: History): PropertyResult {
  const lastHuman = new Map<string, At<Approve>>();
  for (const [index, event] of history.entries()) {
    if (event.kind === 'approve' && event.by === 'human') {
      lastHuman.set(event.approvalId, { index, event });
      continue;
    }
    if (event.kind !== 'effect' || !event.requiresApproval) continue;
    const id = event.approvalId;
    const tampers = allBefore(history, index, 'tamper', (t) => t.approvalId === id);
    const tampered = tampers
      .map((t) => ` ${t.event.actor} had tampered with it (${t.event.what}).`)
      .join('');
    const approval = lastHuman.get(id);
    if (approval === undefined) {
      const forged = lastBefore(history, index, 'approve', (a) => a.approvalId === id && a.by === 'forged');
      const source = forged === undefined ? 'no approval at all' : `an approval ${forged.event.actor} forged`;
      return violated(
        'integrity',
        [...(forged === undefined ? [] : [forged.index]), ...tampers.map((t) => t.index), index],
        `${event.actor} executed ${id} on ${source}: no human approved it.${tampered}`,
      );
    }
    if (!actionsEqual(approval.event.action, event.action)) {
      return violated(
        'integrity',
        [approval.index, ...tampers.map((t) => t.index), index],
        `${event.actor} executed ${id} as ${formatAction(event.action)}, but ${approval.event.actor} approved ` +
          `${formatAction(approval.event.action)}.${tampered}`,
      );
    }
  }
  return holds('integrity');
}
