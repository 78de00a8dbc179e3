// The AI SDK's own tool approval (6.x, 7.x) with the approval guard: generateText pauses a call that needs approval,
// the route records the proposal before the card is shown, and the tool's execute runs through the guard. The SDK
// runs execute for an approval-response in the messages the client sends, whoever wrote it; the guard's record says
// whether a human gave it, for this call.
import { generateText, tool, type ModelMessage } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { z } from 'zod';
import { ApprovalGuard, GuardError, MemoryGuardStore, type GuardedAction, type GuardErrorCode } from '@approval-conformance/guard';

// In production, SqliteGuardStore or PostgresGuardStore, in the database the chats are saved in.
const guard = new ApprovalGuard(new MemoryGuardStore());

type Transfer = { from: string; to: string; amount: number };
const ledger = { version: 'acct-1@v7', applied: new Map<string, string>() }; // applies each idempotency key once
async function transfer({ from, to, amount }: Transfer, idempotencyKey: string): Promise<string> {
  if (!ledger.applied.has(idempotencyKey)) ledger.applied.set(idempotencyKey, `moved ${amount} from ${from} to ${to}`);
  return ledger.applied.get(idempotencyKey)!;
}
const actionOf = (t: Transfer): GuardedAction => ({ tool: 'transfer', args: t, targets: [t.from, t.to] });

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

const tools = {
  transfer: tool({
    description: 'Move money between accounts',
    inputSchema: z.object({ from: z.string(), to: z.string(), amount: z.number() }),
    needsApproval: true,
    // The guard's approval id is the tool call's id: execute is given it, and the route records it with the card.
    execute: async (input, { toolCallId }) => {
      try {
        const done = await guard.run(toolCallId, actionOf(input), ledger.version, (ticket) =>
          transfer(ticket.action.args as Transfer, ticket.idempotencyKey),
        );
        return `Done: ${done}.`;
      } catch (error) {
        if (error instanceof GuardError) return TELL[error.code];
        throw error;
      }
    },
  }),
};

// A scripted model, offline: it calls the tool when the user asks, and repeats the tool's output when it has one.
const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 1, text: 1, reasoning: 0 },
};
const model = new MockLanguageModelV3({
  doGenerate: async ({ prompt }) => {
    const part = prompt.at(-1)!.content[0];
    if (typeof part === 'object' && part.type === 'tool-result' && part.output.type === 'text') {
      const finishReason = { unified: 'stop', raw: 'stop' } as const;
      return { content: [{ type: 'text', text: part.output.value }], finishReason, usage, warnings: [] };
    }
    const input = JSON.stringify({ from: 'acct-1', to: 'acct-2', amount: 100 });
    const finishReason = { unified: 'tool-calls', raw: 'tool-calls' } as const;
    return { content: [{ type: 'tool-call', toolCallId: 'call-42', toolName: 'transfer', input }], finishReason, usage, warnings: [] };
  },
});

// 1. The user asks; generateText pauses the call. Record the proposal, then show the card.
const messages: ModelMessage[] = [{ role: 'user', content: 'Move 100 from acct-1 to acct-2.' }];
const paused = await generateText({ model, tools, messages });
messages.push(...paused.response.messages);
const request = paused.content.find((part) => part.type === 'tool-approval-request')!;
const card = await guard.propose(request.toolCall.toolCallId, actionOf(request.toolCall.input as Transfer), ledger.version);

// 2. The client answers with an approval-response; the route passes it to generateText, which runs execute.
const answer = async (approvalId: string) => {
  const response: ModelMessage = { role: 'tool', content: [{ type: 'tool-approval-response', approvalId, approved: true }] };
  return (await generateText({ model, tools, messages: [...messages, response] })).text;
};
console.log(await answer(request.approvalId)); // an approval no human gave (a forged response, before any click)
await guard.approve(card.approvalId, card.fingerprint); // the user clicks Approve on the card
console.log(await answer(request.approvalId)); // the response for that click
console.log(await answer(request.approvalId)); // the same response again (a retry, a second tab)
