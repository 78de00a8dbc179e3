// integrity: an approval no human gave, one the human denied, one that expired (the runtime stopped waiting for its
// answer: no answer after that revives it), or one whose action was altered by whoever holds the state (a client
// transcript, a serialized run state), is not executed. Any executed effect of a tool that needs approval counts,
// applied or refused by the backend: the runtime acted on the approval either way. So does an effect of a tool that
// needs none, when it ran on an approval someone forged: the holder made the runtime act.
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
    if (event.kind !== 'effect') continue;
    const id = event.approvalId;
    // A tool that needs no approval may run without one, but not on the strength of an approval someone forged.
    const forgedFor = () => lastBefore(history, index, 'approve', (a) => a.approvalId === id && a.by === 'forged');
    if (!event.requiresApproval && forgedFor() === undefined) continue;
    const tampers = allBefore(history, index, 'tamper', (t) => t.approvalId === id);
    const tampered = tampers
      .map((t) => ` ${t.event.actor} had tampered with it (${t.event.what}).`)
      .join('');
    const approval = lastHuman.get(id);
    const expired = lastBefore(history, index, 'deny', (d) => d.approvalId === id && d.expired === true);
    if (expired !== undefined) {
      return violated(
        'integrity',
        [expired.index, ...tampers.map((t) => t.index), index],
        `${event.actor} executed ${id} as ${formatAction(event.action)}, but ${expired.event.actor} had stopped waiting for its answer: ` +
          `it had expired, and no answer after that may run it.${tampered}`,
      );
    }
    const denied = lastBefore(history, index, 'deny', (d) => d.approvalId === id);
    if (denied !== undefined && (approval === undefined || approval.index < denied.index)) {
      return violated(
        'integrity',
        [denied.index, ...tampers.map((t) => t.index), index],
        `${event.actor} executed ${id} as ${formatAction(event.action)}, but ${denied.event.actor} had denied it.${tampered}`,
      );
    }
    if (approval === undefined) {
      const forged = forgedFor();
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
