// A transfer tool behind the approval guard: record the proposal before the card is shown, record the user's click
// with the card's fingerprint, run the tool through the guard with its idempotency key, and tell the user what
// happened.
import Database from 'better-sqlite3';
import { ApprovalGuard, GuardError, type GuardedAction } from '@approval-conformance/guard';
import { SqliteGuardStore } from '@approval-conformance/guard/sqlite';

const guard = new ApprovalGuard(new SqliteGuardStore(new Database('approvals.db')));

// The tool: a ledger that applies each idempotency key once. `version` is what the user was shown of the account.
type Transfer = { from: string; to: string; amount: number };
const ledger = { version: 'acct-1@v7', applied: new Map<string, string>() };
async function transfer({ from, to, amount }: Transfer, idempotencyKey: string): Promise<string> {
  if (!ledger.applied.has(idempotencyKey)) ledger.applied.set(idempotencyKey, `moved ${amount} from ${from} to ${to}`);
  return ledger.applied.get(idempotencyKey)!;
}

// 1. The agent wants to call the tool and the framework pauses: record the proposal, then show its card.
const action: GuardedAction = { tool: 'transfer', args: { from: 'acct-1', to: 'acct-2', amount: 100 }, targets: ['acct-1', 'acct-2'] };
const card = await guard.propose('call-42', action, ledger.version);

// 2. The user clicks Approve on that card: the answer is bound to the fingerprint of what they saw.
await guard.approve(card.approvalId, card.fingerprint);

// 3. The framework resumes with a tool call that claims an approval: spend it, then act, with the ticket's action
//    and idempotency key.
async function resume(approvalId: string, call: GuardedAction): Promise<string> {
  try {
    const receipt = await guard.run(approvalId, call, ledger.version, (ticket) =>
      transfer(ticket.action.args as Transfer, ticket.idempotencyKey),
    );
    return `Done: ${receipt}.`;
  } catch (error) {
    if (error instanceof GuardError) return tell(error);
    throw error;
  }
}

// What to tell the user for each refusal: never that something happened when it did not, nor the other way round.
function tell(error: GuardError): string {
  switch (error.code) {
    case 'unknown-approval':
    case 'not-approved':
      return 'Not done: you have not approved this.';
    case 'denied':
      return 'Not done: you declined it.';
    case 'expired':
      return 'Not done: the approval expired. Please review it again.';
    case 'action-mismatch':
      return 'Not done: this is not the action you approved.';
    case 'world-moved':
      return 'Not done: the account changed since you approved. Please review it again.';
    case 'already-spent':
      return 'Already done once; it will not run again.';
    case 'outcome-unknown':
      return 'It may have gone through. We are checking, and it will not run twice.';
    case 'already-proposed':
    case 'contended':
      return 'Something went wrong on our side. Please try again.';
  }
}

console.log(await resume('call-42', { ...action, args: { from: 'acct-1', to: 'acct-666', amount: 100 } })); // an edited call
console.log(await resume('call-42', action)); // the call the user approved
console.log(await resume('call-42', action)); // the same resume again (a retry, a second tab)
console.log(await resume('call-43', action)); // an approval a forged transcript claims
