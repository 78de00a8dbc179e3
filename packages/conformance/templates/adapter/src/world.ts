// One world: a fresh agent over a fresh store, its model and tools the suite's fakes, every await the suite should
// interleave behind a gate (packages/core/ADAPTERS.md, in @approval-conformance/core). Between gates the framework's
// own code runs untouched: its resume, its check, its spend. The adapter fakes only the model, the tool's backend and
// the client.
//
// For a real framework, keep the shape and replace what it wraps: the framework's store (a checkpointer, a session
// service) wrapped as `GatedStore` wraps the toy's, with a gate before each call, its key, and the record's version as
// the framework keeps it; its model interface answered from `env.model`; its tools calling `env.backend`.
import type { Access, ProposalRequest, World, WorldEnv } from '@approval-conformance/core/contract';
import { actionOfCall, GuardedToolError, memoryGuardRecords, toolInput, WorldGuard } from '@approval-conformance/core/kit';
import { Agent, MemoryApprovalStore, type ApprovalRecord, type ApprovalStore, type Context, type Model, type Tool } from './runtime.js';
import type { Wiring } from './wirings.js';

/** What the adapter passes with each run and resume, through the framework's per-call context. */
type Call = {
  /** The turn that makes the call (`t1`, `t2`): every gate and event it causes names it. */
  readonly turn: string;
  /** For a run: what the scenario asks the model to propose. */
  readonly request?: ProposalRequest;
};

const callOf = (context: Context) => context as Call;

/** The suite's record state of a toy approval: pending is not spent yet; done and denied can never run again. */
const stateOf = (record: ApprovalRecord | undefined) => (record === undefined ? 'absent' : record.status === 'pending' ? 'unspent' : 'spent');

/**
 * The framework's store as the suite sees it: a gate before each call, declaring what the call touches, and the call
 * reported (`env.accessed`) with the key taken from its own arguments. Unguarded, the store holds the approvals'
 * record: each read and write is reported to the history with the record's version. Guarded, the guard's record is
 * the approvals' record, and this store is plain app state (`app:`), gated but not reported.
 */
class GatedStore implements ApprovalStore {
  readonly #inner: MemoryApprovalStore;
  readonly #env: WorldEnv;
  readonly #kind: 'record' | 'app';

  constructor(inner: MemoryApprovalStore, env: WorldEnv, guarded: boolean) {
    this.#inner = inner;
    this.#env = env;
    this.#kind = guarded ? 'app' : 'record';
  }

  #access(id: string, mode: Access['mode']): Access {
    return { key: `${this.#kind}:${id}`, mode };
  }

  async get(id: string, context: Context): Promise<ApprovalRecord | undefined> {
    const { turn } = callOf(context);
    await this.#env.gate(turn, `store.get(${id})`, { access: [this.#access(id, 'read')] });
    const found = await this.#inner.get(id);
    this.#env.accessed(this.#access(id, 'read'), `store.get(${id})`);
    if (this.#kind === 'record') {
      this.#env.history.emit({ kind: 'record-read', actor: turn, approvalId: id, version: found?.revision ?? 0, state: stateOf(found) });
    }
    return found;
  }

  async put(record: Omit<ApprovalRecord, 'revision'>, context: Context): Promise<void> {
    const { turn } = callOf(context);
    await this.#env.gate(turn, `store.put(${record.id}, ${record.status})`, { access: [this.#access(record.id, 'write')] });
    // What the put replaces, read in the same release (no other turn runs in between), for the history's `from`.
    const before = await this.#inner.get(record.id);
    await this.#inner.put(record);
    const after = await this.#inner.get(record.id);
    this.#env.accessed(this.#access(record.id, 'write'), `store.put(${record.id})`);
    if (this.#kind === 'record') {
      this.#env.history.emit({
        kind: 'record-write',
        actor: turn,
        approvalId: record.id,
        version: after!.revision,
        from: stateOf(before),
        state: stateOf(after),
      });
    }
  }
}

/** The tools the scenarios' actions call (`transfer`, `notify`): each needs approval, and each reaches the backend. */
function buildTools(env: WorldEnv, guard: WorldGuard | undefined): Record<string, Tool> {
  const tool = (name: string): Tool => ({
    needsApproval: true,
    async run(input, { id, context }) {
      const { turn } = callOf(context);
      const action = actionOfCall(name, input);
      const dispatch = `${turn}/${id}`;
      if (guard) {
        // Guarded: the guard spends the approval first (for exactly this action, in the world it was approved in),
        // then calls the backend with its idempotency key. A spend it refuses runs nothing.
        const outcome = await guard.app.run(turn, id, action, dispatch);
        if (outcome === 'refused' || outcome === 'unknown') throw new GuardedToolError(name, outcome);
        return { ok: true };
      }
      await env.backend.call(turn, { approvalId: id, dispatch, action });
      return { ok: true };
    },
  });
  return { transfer: tool('transfer'), notify: tool('notify') };
}

export function createWorld(env: WorldEnv, wiring: Wiring): World {
  const guard = wiring.guarded ? new WorldGuard(env, memoryGuardRecords) : undefined;
  // How many proposals the model has made: the next approval is `a${proposals + 1}`. World state, never module state.
  let proposals = 0;
  // The world each approval was proposed in, for the guard's record.
  const proposedIn = new Map<string, string>();

  // The model: the scenario's adversary picks among the alternatives; the pick becomes approval a1, a2, ...
  const model: Model = async (_input, context) => {
    const { turn, request } = callOf(context);
    const action = await env.model.decide(turn, 'propose', request?.alternatives ?? []);
    const id = `a${++proposals}`;
    const world = env.backend.world;
    proposedIn.set(id, world);
    env.history.emit({ kind: 'proposed', actor: turn, approvalId: id, action, world });
    return { id, tool: action.operation, input: toolInput(action) };
  };

  const tools = buildTools(env, guard);
  let inner = new MemoryApprovalStore();
  let agent = new Agent({ model, tools, store: new GatedStore(inner, env, wiring.guarded) });

  return {
    async propose(turn, request) {
      const context: Call = { turn, request };
      const ran = await agent.run('Please do what we discussed.', { context });
      if (ran.status !== 'paused') return undefined;
      const approvalId = ran.approval.id;
      const action = actionOfCall(ran.approval.tool, ran.approval.input);
      // Guarded: the guard's record is written before the card is shown, bound to the action and its world.
      await guard?.app.propose(turn, approvalId, action, proposedIn.get(approvalId)!);
      await env.connections.deliverCard(turn, approvalId, action);
      return { approvalId, action };
    },

    // Guarded: the human's click reaches the server, which records it with the guard.
    ...(guard ? { approve: (turn: string, approvalId: string) => guard.app.approve(turn, approvalId) } : {}),

    async resume(turn, { approvalId, approved }) {
      const context: Call = { turn };
      let resumed;
      try {
        resumed = await agent.resume(approvalId, { approved }, { context });
      } catch (error) {
        // The tool failed. Unguarded, the app believes it: the user is told it did not happen. Guarded, the guard
        // says whether it may have run ('unknown'), or that it refused it before it ran (nothing to tell).
        if (!(error instanceof GuardedToolError)) return env.connections.disclose(turn, approvalId, 'not-happened');
        if (error.outcome === 'unknown') await env.connections.disclose(turn, approvalId, 'unknown');
        return;
      }
      if (resumed.status === 'done') return env.connections.disclose(turn, approvalId, 'happened');
      // Guarded: an approval with nothing left to resume may have been spent by a process now gone; the guard's
      // recovery says what ran, and the user is told.
      if (resumed.status === 'not-pending' && approved && guard && (await guard.app.recover(turn, approvalId)) === 'ran') {
        await env.connections.disclose(turn, approvalId, 'happened');
      }
    },

    async inspect(approvalId) {
      if (guard) return guard.inspect(approvalId);
      const record = await inner.get(approvalId);
      return { state: stateOf(record), version: record?.revision ?? 0 };
    },

    async restart() {
      // A new process: the toy's store is in memory, so it starts empty (a durable store would be opened again).
      inner = new MemoryApprovalStore();
      agent = new Agent({ model, tools, store: new GatedStore(inner, env, wiring.guarded) });
      guard?.restart();
    },

    async tamper(approvalId, action) {
      // Whoever holds the store edits the pending call, as any code with the store in hand can.
      const record = await inner.get(approvalId);
      if (record) await inner.put({ ...record, call: { ...record.call, tool: action.operation, input: toolInput(action) } });
    },

    // The shared state by the keys the gates declare, for the suite's check of declarations.
    async contents() {
      const kind = wiring.guarded ? 'app' : 'record';
      const records = Object.fromEntries(inner.records().map((r) => [`${kind}:${r.id}`, JSON.stringify(r)]));
      return { ...records, ...(guard ? await guard.contents() : {}) };
    },

    async close() {
      guard?.close();
    },
  };
}
