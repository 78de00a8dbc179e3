// binding: the executed action equals the approved one (operation, targets, parameters) and runs against the
// world the card was approved against. Compared with the last human approval of that id before the effect; an
// effect with no human approval at all is integrity's concern, not this one's.
import { actionDifferences, formatAction } from '../history/action.js';
import type { Approve, History, Proposed } from '../history/events.js';
import { holds, violated, type PropertyResult } from './result.js';
import { joinAnd, type At } from './scan.js';

export function binding(history: History): PropertyResult {
  const lastApproval = new Map<string, At<Approve>>();
  const lastProposal = new Map<string, At<Proposed>>();
  for (const [index, event] of history.entries()) {
    if (event.kind === 'approve' && event.by === 'human') {
      lastApproval.set(event.approvalId, { index, event });
    } else if (event.kind === 'proposed') {
      lastProposal.set(event.approvalId, { index, event });
    } else if (event.kind === 'effect' && event.requiresApproval) {
      const approval = lastApproval.get(event.approvalId);
      if (approval === undefined) continue;
      const proposal = lastProposal.get(event.approvalId);
      const worldDrifted = proposal !== undefined && proposal.event.world !== event.world;
      const parts: string[] = actionDifferences(approval.event.action, event.action);
      if (worldDrifted) parts.push('world');
      if (parts.length === 0) continue;
      const approvedWorld = proposal === undefined ? '' : ` in world ${proposal.event.world}`;
      return violated(
        'binding',
        [approval.index, ...(worldDrifted ? [proposal.index] : []), index],
        `${event.actor} executed ${event.approvalId} as ${formatAction(event.action)} in world ${event.world}, ` +
          `but ${approval.event.actor} approved ${formatAction(approval.event.action)}${approvedWorld}: ` +
          `the ${joinAnd(parts)} differ.`,
      );
    }
  }
  return holds('binding');
}
