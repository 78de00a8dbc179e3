// LangGraph's human-in-the-loop (1.x) with the approval guard: a node proposes, the next calls interrupt(), the app
// records the proposal before it shows the card, and the node after the interrupt runs the tool through the guard.
// A resume only claims that someone clicked; the guard's record says whether they did, and for what.
import { randomUUID } from 'node:crypto';
import { Annotation, Command, END, INTERRUPT, interrupt, isInterrupted, MemorySaver, START, StateGraph } from '@langchain/langgraph';
import { ApprovalGuard, GuardError, MemoryGuardStore, type GuardedAction, type GuardErrorCode } from '@approval-conformance/guard';

// In production, SqliteGuardStore or PostgresGuardStore beside the checkpointer (SqliteSaver, PostgresSaver).
const guard = new ApprovalGuard(new MemoryGuardStore());

type Transfer = { from: string; to: string; amount: number };
const ledger = { version: 'acct-1@v7', applied: new Map<string, string>() }; // applies each idempotency key once
async function transfer({ from, to, amount }: Transfer, idempotencyKey: string): Promise<string> {
  if (!ledger.applied.has(idempotencyKey)) ledger.applied.set(idempotencyKey, `moved ${amount} from ${from} to ${to}`);
  return ledger.applied.get(idempotencyKey)!;
}
const transferAction = (to: string): GuardedAction => ({
  tool: 'transfer',
  args: { from: 'acct-1', to, amount: 100 },
  targets: ['acct-1', to],
});

// What to tell the user for each refusal: never that something happened when it did not, nor the other way round.
const TELL: Record<GuardErrorCode, string> = {
  'unknown-approval': 'Not done: you have not approved this.',
  'not-approved': 'Not done: you have not approved this.',
  denied: 'Not done: you declined it.',
  expired: 'Not done: the approval expired. Please review it again.',
  'action-mismatch': 'Not done: this is not the action you approved.',
  'world-moved': 'Not done: the account changed since you approved. Please review it again.',
  'already-spent': 'Already done once; it will not run again.',
  'outcome-unknown': 'It may have gone through. We are checking, and it will not run twice.',
  'already-proposed': 'Something went wrong on our side. Please try again.',
  contended: 'Something went wrong on our side. Please try again.',
};

type Proposal = { approvalId: string; action: GuardedAction };
type Answer = { approved: boolean };
const State = Annotation.Root({
  approvalId: Annotation<string>(),
  action: Annotation<GuardedAction>(),
  answer: Annotation<Answer>(),
  said: Annotation<string>(),
});
const graph = new StateGraph(State)
  // The "model": a transfer, under a new id, kept in the state (the interrupt's node runs again on resume).
  .addNode('propose', () => ({ approvalId: randomUUID(), action: transferAction('acct-2') }))
  .addNode('ask', (state) => ({ answer: interrupt<Proposal, Answer>({ approvalId: state.approvalId, action: state.action }) }))
  // The effect in the next node, as the docs advise: the guard spends the approval for this action, then it acts.
  .addNode('act', async (state) => {
    if (!state.answer.approved) return { said: 'Not done: you declined it.' };
    try {
      const done = await guard.run(state.approvalId, state.action, ledger.version, (ticket) =>
        transfer(ticket.action.args as Transfer, ticket.idempotencyKey),
      );
      return { said: `Done: ${done}.` };
    } catch (error) {
      if (error instanceof GuardError) return { said: TELL[error.code] };
      throw error;
    }
  })
  .addEdge(START, 'propose').addEdge('propose', 'ask').addEdge('ask', 'act').addEdge('act', END)
  .compile({ checkpointer: new MemorySaver() });

// The app: the run pauses at the interrupt; record the proposal from its value, show the card, and the user approves.
async function startAndApprove(thread: string) {
  const config = { configurable: { thread_id: thread } };
  const paused = await graph.invoke({}, config);
  if (!isInterrupted<Proposal>(paused)) throw new Error('the run did not stop for approval');
  const { approvalId, action } = paused[INTERRUPT][0]!.value!;
  const card = await guard.propose(approvalId, action, ledger.version);
  await guard.approve(card.approvalId, card.fingerprint); // the click, bound to the card the user saw
  return config;
}
const resume = async (config: object) => (await graph.invoke(new Command({ resume: { approved: true } }), config)).said;

// Two tabs send the same click at once: both resumes run 'act' from the same checkpoint; the guard lets one spend.
const chat1 = await startAndApprove('chat-1');
for (const said of await Promise.all([resume(chat1), resume(chat1)])) console.log(said);

// The run's state is edited between the click and the resume: what runs must be what was approved.
const chat2 = await startAndApprove('chat-2');
await graph.updateState(chat2, { action: transferAction('acct-666') });
console.log(await resume(chat2));
