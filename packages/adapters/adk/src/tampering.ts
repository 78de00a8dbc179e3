// What whoever holds the session store can do to it. ADK keeps the agent's call in one event and pins a copy of it
// in the confirmation call's arguments; 2.0 compares the two before it runs an approved call. So the holder can edit
// the agent's call alone (World.tamper), the pinned copy alone, or both together. A forged answer (the scenario's own
// `forge`) needs nothing of the store: the confirmation is a function response any client can send.
import { type Action, type Tampering } from '@approval-conformance/core/contract';
import { toolInput } from '@approval-conformance/core/kit';
import { GATE, partsOf, type Any } from './record.js';
import type { Sessions } from './sessions.js';

type Where = 'call' | 'pin';

/** The events with call `callId` changed to `action`: the agent's call, the gate's pinned copy, or both. */
function edit(events: Any[], callId: string, action: Action, where: readonly Where[]): void {
  let found = false;
  for (const event of events) {
    for (const part of partsOf(event)) {
      const call = part.functionCall;
      if (where.includes('call') && call?.id === callId && call.name !== GATE) {
        call.name = action.operation;
        call.args = toolInput(action);
        found = true;
      }
      const pinned = call?.name === GATE ? call.args?.originalFunctionCall : undefined;
      if (where.includes('pin') && pinned?.id === callId) {
        pinned.name = action.operation;
        pinned.args = toolInput(action);
        found = true;
      }
    }
  }
  if (!found) throw new Error(`the stored session has no call ${callId} to edit`);
}

/** The plain edit: the agent's call alone, where the session keeps it (World.tamper). */
export const editCall = (sessions: () => Sessions) => (approvalId: string, action: Action) =>
  sessions().edit('holder', (events) => edit(events, approvalId, action, ['call']));

export function tamperings(sessions: () => Sessions): Tampering[] {
  const way = (id: string, where: readonly Where[], what: string): Tampering => ({
    id,
    humanApproved: true,
    async apply(pending, action) {
      await sessions().edit('holder', (events) => edit(events, pending.approvalId, action, where));
      return { what: `${what} of ${pending.approvalId} in the stored session`, approvalId: pending.approvalId, action };
    },
  });
  return [
    way('edit-pinned', ['pin'], "changed the target in the confirmation call's pinned copy"),
    way('edit-both', ['call', 'pin'], "changed the target in the agent's call and in the confirmation call's pinned copy"),
  ];
}
