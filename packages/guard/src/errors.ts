// Every refusal is a GuardError with a code to branch on and a message that says what happened and what to do.
import type { ApprovalState } from './record.js';

export type GuardErrorCode =
  | 'unknown-approval'
  | 'already-proposed'
  | 'not-approved'
  | 'denied'
  | 'expired'
  | 'already-spent'
  | 'action-mismatch'
  | 'world-moved'
  | 'outcome-unknown'
  | 'contended';

export class GuardError extends Error {
  override readonly name = 'GuardError';
  constructor(
    readonly code: GuardErrorCode,
    readonly approvalId: string,
    message: string,
    /** The record's state when the guard refused, where there was a record. */
    readonly state?: ApprovalState,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

export const refuse = {
  unknown: (id: string) =>
    new GuardError('unknown-approval', id, `no approval record '${id}': an approval that was never proposed through the guard (a forged or edited transcript) does nothing. Propose it with guard.propose() before showing the card.`),
  proposed: (id: string) =>
    new GuardError('already-proposed', id, `approval '${id}' was proposed already; give each proposal a new id.`),
  notApproved: (id: string, state: ApprovalState) =>
    new GuardError('not-approved', id, `approval '${id}' is ${state}, not approved: an approval found in a transcript or run state counts only when the record says so. Record the user's answer with guard.approve().`, state),
  notSpent: (id: string, state: ApprovalState) =>
    new GuardError('not-approved', id, `approval '${id}' is ${state}, not spent: only the outcome of a spent approval can be recorded. Settle with the ticket guard.spend() returned.`, state),
  denied: (id: string) => new GuardError('denied', id, `approval '${id}' was denied; do not act.`, 'denied'),
  expired: (id: string) => new GuardError('expired', id, `approval '${id}' expired; ask the user again with a new proposal.`, 'expired'),
  spent: (id: string) =>
    new GuardError('already-spent', id, `approval '${id}' was spent already: its action ran (or was started) once, and will not run again. Tell the user what the first run did (guard.status()).`, 'spent'),
  mismatch: (id: string, state: ApprovalState) =>
    new GuardError('action-mismatch', id, `the action about to run under approval '${id}' is not the one the user approved (its tool, arguments or targets differ): refused. Propose the new action for its own approval.`, state),
  moved: (id: string, state: ApprovalState) =>
    new GuardError('world-moved', id, `the world changed since approval '${id}' was proposed: the user approved it against what they saw then. Propose it again.`, state),
  contended: (id: string) =>
    new GuardError('contended', id, `approval '${id}' kept changing while the guard tried to write it; try again.`),
};
