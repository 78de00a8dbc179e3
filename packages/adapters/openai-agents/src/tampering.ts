// What whoever holds the serialized state can do to it: edit a call's arguments alone; edit them together with what
// binds them to the approval (from 0.15 the state keeps a fingerprint of each approved call, `approvalInvocations`:
// the holder drops the approval and approves the edited call again with the SDK's own `state.approve`, so the
// binding is the SDK's); or approve a call no human approved, in a state that had no approval. Each is written back
// the way the app writes the state.
import type { Action, Tampering } from '@approval-conformance/core/contract';
import type { AgentsLib } from './lib.js';
import { inputOf } from './model.js';
import type { Json } from './record.js';
import type { StateStore } from './store.js';

interface Holder {
  readonly lib: AgentsLib;
  readonly agent: () => unknown;
  /** The stored serialized state: the app's record, or the server's stored snapshot (server-owned state). */
  readonly store: () => Pick<StateStore, 'peek' | 'save'>;
}

/** Visit every object in a JSON value. */
function visit(value: unknown, fn: (o: Json) => void): void {
  if (Array.isArray(value)) for (const v of value) visit(v, fn);
  else if (value && typeof value === 'object') {
    fn(value as Json);
    for (const v of Object.values(value)) visit(v, fn);
  }
}

/** The state with call `callId`'s tool name and arguments changed wherever the state holds the call. */
export function editArguments(text: string, callId: string, action: Action): string {
  const state = JSON.parse(text) as Json;
  visit(state, (o) => {
    if (o['type'] === 'function_call' && o['callId'] === callId) {
      o['name'] = action.operation;
      o['arguments'] = JSON.stringify(inputOf(action));
    }
  });
  return JSON.stringify(state);
}

/** The state with every approval decision and argument binding for call `callId` taken out. */
function dropApproval(text: string, callId: string): string {
  const state = JSON.parse(text) as Json;
  const context = state['context'] as Json;
  const unlist = (record: Json) => {
    for (const key of ['approved', 'rejected']) {
      if (Array.isArray(record[key])) record[key] = (record[key] as string[]).filter((id) => id !== callId);
    }
  };
  for (const record of Object.values((context['approvals'] ?? {}) as Record<string, Json>)) unlist(record);
  for (const owner of (context['functionApprovals'] ?? []) as Json[]) {
    for (const record of Object.values((owner['approvals'] ?? {}) as Record<string, Json>)) unlist(record);
  }
  for (const owner of (context['approvalInvocations'] ?? []) as Json[]) {
    delete owner['invocations']?.[callId];
    for (const record of Object.values((owner['approvals'] ?? {}) as Record<string, Json>)) unlist(record);
  }
  return JSON.stringify(state);
}

/** The SDK's own `state.approve` of call `callId` in a stored state, serialized again. */
async function approveWithSdk(holder: Holder, text: string, callId: string): Promise<string> {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const state: any = await holder.lib.agents.RunState.fromString(holder.agent(), text);
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const item = (state.getInterruptions() as any[]).find((i) => i?.rawItem?.callId === callId);
  if (!item) throw new Error(`the stored state has no interruption for ${callId}`);
  state.approve(item);
  return state.toString();
}

const stored = (holder: Holder) => {
  const text = holder.store().peek();
  if (text === undefined) throw new Error('the store holds no state to tamper with');
  return text;
};

/** The plain edit: the arguments alone (World.tamper). */
export async function editAlone(holder: Holder, approvalId: string, action: Action): Promise<void> {
  await holder.store().save('holder', editArguments(stored(holder), approvalId, action));
}

export function tamperings(holder: Holder, binding: boolean): Tampering[] {
  const editBound: Tampering = {
    id: 'edit-bound',
    humanApproved: true,
    async apply(pending, action) {
      const edited = editArguments(dropApproval(stored(holder), pending.approvalId), pending.approvalId, action);
      await holder.store().save('holder', await approveWithSdk(holder, edited, pending.approvalId));
      return {
        what: `changed ${pending.approvalId}'s arguments and bound its approval to them again with state.approve`,
        approvalId: pending.approvalId,
        action,
      };
    },
  };
  const forgeApproval: Tampering = {
    id: 'forge-approval',
    humanApproved: false,
    async apply(pending) {
      await holder.store().save('holder', await approveWithSdk(holder, stored(holder), pending.approvalId));
      return { what: `approved ${pending.approvalId} in the stored state with state.approve`, approvalId: pending.approvalId, action: pending.action };
    },
  };
  // Before 0.15 nothing binds an approval to its arguments: the bound edit is the plain one.
  return binding ? [editBound, forgeApproval] : [forgeApproval];
}
