// One world: the process's server, emptied, with a graph of the world's own registered, driven as an app drives it
// through the real client: create a run on the thread (with the wiring's multitask strategy), wait for it to end,
// read the thread's state to show the card, create a run with `command: { resume }` for the answer.
//
// A run is executed by the server's worker: here the turn that waits for a run drains the server's queue itself, as
// one of a real server's workers would after its poll (`drain`). It may so run another turn's run, as a worker may,
// and wait for its own where another turn's drain has it. Every gate belongs to the code that reaches it (the turn
// whose request or drain it is), which is what `whose` tracks; the graph and the saver ask it, not the run's config.
//
// Stores. `memory`: the server's state lives in memory; a restart begins empty (a server without its files).
// `file`: the server's persistence writes its whole state to its files on a 3-second debounce, pushed back by every
// access, so it fires only when the server has been quiet for 3 s: here, when no request is in flight (every turn's
// request has ended). A restart reads the files back: what was written at the last quiet moment, and nothing since.
import { AsyncLocalStorage } from 'node:async_hooks';
import {
  type Access,
  type Action,
  type Answer,
  type ProposalRequest,
  type World,
  type WorldEnv,
} from '@approval-conformance/core/contract';
import { GatedGuardStore, GuardedApp } from '@approval-conformance/core/kit';
import { MemoryGuardStore, type ApprovalRecord } from '@approval-conformance/guard';
import {
  approvalState,
  buildGraph,
  buildParallelGraph,
  discloseEach,
  discloseEffects,
  gatedSaverClass,
  interruptsFor,
  newSaverBook,
  pendingApprovals,
  pendingOf,
  resumeOf,
  saverContents,
  showCards,
  type Interrupt,
  type TupleLike,
} from '@approval-conformance/adapter-langgraph';
import { OPS_KEY, opsText, type OpsHooks } from './ops.js';
import { drain, GRAPH_ID, type Server } from './server.js';
import type { Wiring } from './wirings.js';

/** The app's one thread (the server wants a UUID). */
export const THREAD = '00000000-0000-4000-8000-000000000001';

/** Whose code is running: the turn whose request, or whose drain of the queue, it is. */
const whose = new AsyncLocalStorage<string>();

/** How a run the app created ended, as its client learns it. */
type Outcome =
  | { readonly refused: string }
  | { readonly status: string; readonly values?: Record<string, unknown>; readonly error?: { error?: string; message?: string } };

const TERMINAL = new Set(['success', 'error', 'interrupted', 'timeout', 'deleted']);

/** What the server's files hold: its persistence's own serialization of the ops and of the checkpoints. */
interface Disk {
  readonly ops: string;
  readonly checkpoints: string;
}

export async function createWorld(server: Server, wiring: Wiring, env: WorldEnv): Promise<World> {
  const { opsConn, checkpointer, checkpointerConn, streams } = server;
  const client = server.client();
  let approvals = new Set<string>();
  let book = newSaverBook();
  const turnOf = () => whose.getStore() ?? 'unknown';
  // The server's checkpointer is a module singleton: this world's gates go in front of it (its class stays its own).
  const Saver = gatedSaverClass(server.saverClass, {
    gate: env.gate,
    external: env.external,
    history: env.history,
    get approvals() {
      return approvals;
    },
    book: () => book,
    keyedWrites: true,
    report: !wiring.guarded,
    accessed: env.accessed,
    turnOf,
  });
  Object.setPrototypeOf(checkpointer, Saver.prototype);

  // Turns waiting for a run that another turn's drain has, or that waits behind another run on the thread.
  let waiters: (() => void)[] = [];
  let changes = 0;
  const hooks: OpsHooks = {
    async gate(label, access: Access | undefined) {
      const turn = whose.getStore();
      // The world's own set-up (the thread's creation) runs outside any turn, with nothing to interleave.
      if (turn === undefined) return;
      await env.gate(turn, label, access ? { access: [access] } : {});
    },
    touched(label) {
      if (whose.getStore() !== undefined) env.accessed({ key: OPS_KEY, mode: 'read' }, label);
    },
    changed() {
      changes++;
      const woken = waiters;
      waiters = [];
      for (const wake of woken) wake();
    },
  };
  server.hooks = hooks;

  /** Empties the server's state, as a server started without files has it (its assistants registered). */
  const empty = () => {
    opsConn.data = server.emptyOps();
    checkpointer.storage = {};
    checkpointer.writes = {};
    checkpointerConn.data = { storage: checkpointer.storage, writes: checkpointer.writes };
  };
  /** A new process: no run locked, no stream kept. */
  const newProcess = () => {
    streams.readers = {};
    streams.control = {};
    waiters = [];
    inFlight = 0;
  };
  let inFlight = 0;
  let disk: Disk | undefined;
  empty();
  newProcess();

  // Guarded: the client's copy of each card's fingerprint (it outlives a restart), and the app's guard in this
  // process, over records of its own (in memory: a restart of the memory store loses them, as it loses the rest).
  let records = new MemoryGuardStore();
  let cards = new Map<string, string>();
  let incarnation = 0;
  const io = <T>(work: T | Promise<T>) => env.external(Promise.resolve(work));
  const startApp = (n = incarnation + 1) => {
    incarnation = n;
    return wiring.guarded ? new GuardedApp(new GatedGuardStore(records, env.gate, io, env.history), env.backend, cards, `p${n}`) : undefined;
  };
  let app = startApp();

  let request: ProposalRequest = { alternatives: [] };
  /** The further calls of `proposeMany`: the graph is then the parallel one, each call behind its own interrupt. */
  let parallel: readonly (readonly Action[])[] | undefined;
  let proposals = 0;
  let interruptIds = new Map<string, string>();
  let graph: ReturnType<typeof buildGraph> | undefined;
  const build = () => {
    const deps = { lib: server.lib.langgraph, fakes: env, history: env.history, alternatives: () => request.alternatives, guard: () => app, turnOf };
    const built = parallel
      ? buildParallelGraph({ effectIn: 'interrupt-node' }, { ...deps, parallel: () => parallel ?? [] }, checkpointer)
      : buildGraph(
          {
            effectIn: 'interrupt-node',
            proposalIn: env.scenario === 're-proposal' ? 'interrupt-node' : 'own-node',
            ...(request.followUp ? { followUp: request.followUp } : {}),
          },
          deps,
          checkpointer,
        );
    // The server gives every graph its key-value store, which LangGraph then batches in a loop of zero-delay timers
    // for as long as a run lasts: real timers, whose firing between two gates depends on the machine's speed. The
    // graph never uses the store, so it gets none (the assignment is ignored); nothing else changes.
    Object.defineProperty(built, 'store', { configurable: true, get: () => undefined, set: () => {} });
    // The registry entry the server calls for every run and every read of the thread's state.
    server.graphs[GRAPH_ID] = async () => built;
    return built;
  };

  /** The file store's write, where the debounce fires: the whole state, as the persistence serializes it. */
  const flush = () => {
    disk = { ops: server.serialize(opsConn.data), checkpoints: server.serialize(checkpointerConn.data) };
  };

  /** A request of `turn`'s: its code, and the code it starts, is the turn's; at its end, the server may be quiet. */
  const asRequest = <T>(turn: string, body: () => Promise<T>): Promise<T> =>
    whose.run(turn, async () => {
      inFlight++;
      try {
        return await body();
      } finally {
        if (--inFlight === 0 && env.store === 'file') flush();
      }
    });

  const statusOf = (runId: string): string => opsConn.data?.['runs']?.[runId]?.status ?? 'deleted';

  /** Waits for the run to end, draining the queue while it is pending, and waiting on other turns while not. */
  const waitFor = async (runId: string): Promise<string> => {
    for (;;) {
      if (TERMINAL.has(statusOf(runId))) return statusOf(runId);
      const before = changes;
      if (statusOf(runId) === 'pending') await drain(server);
      if (TERMINAL.has(statusOf(runId))) return statusOf(runId);
      if (changes === before) await new Promise<void>((wake) => waiters.push(wake));
    }
  };

  /** Creates a run with the wiring's strategy and waits for it; what its client then has (its stream's last values). */
  const runOnce = async (payload: Record<string, unknown>): Promise<Outcome> => {
    let run: { run_id: string };
    try {
      run = await client.runs.create(THREAD, GRAPH_ID, { ...payload, multitaskStrategy: wiring.strategy });
    } catch (error) {
      const status = (error as { status?: number }).status;
      // The server refused the run: the thread is busy (reject, 422), or gone after a restart of the memory store (404,
      // or 500 "Unreachable state when creating run" under enqueue). The app shows the error.
      if (status !== undefined && status >= 400) return { refused: (error as Error).message };
      throw error;
    }
    const status = await waitFor(run.run_id);
    const events = streams.readers[run.run_id]?.log ?? [];
    const last = (event: string) => events.filter((e) => e.topic.endsWith(`:stream:${event}`)).at(-1)?.data;
    return {
      status,
      values: last('values') as Record<string, unknown> | undefined,
      error: last('error') as { error?: string; message?: string } | undefined,
    };
  };

  /** The interrupts the thread is paused on, as the app reads them (the thread's state) to show cards. */
  const pausedOn = async (): Promise<Interrupt[]> => {
    const state = await client.threads.getState(THREAD);
    return state.tasks?.flatMap((t: { interrupts?: Interrupt[] }) => t.interrupts ?? []) ?? [];
  };

  // The thread, created by the app before anything else (the set-up's own request, outside any turn).
  await client.threads.create({ threadId: THREAD, ifExists: 'do_nothing' });

  /** One resume request with the user's answers: a value (the first answer's), or a map of interrupt ids. */
  const resumeWith = (turn: string, answers: readonly Answer[]) =>
    asRequest(turn, async () => {
      if (!graph) throw new Error('resume before propose');
      const answer = answers[0]!;
      const resume = resumeOf(answers, interruptIds, wiring.resumeBy === 'id');
      const outcome = await runOnce({ command: { resume } });
      // Refused, interrupted or rolled back by another request's run: the app has nothing definite to tell.
      if ('refused' in outcome) return;
      if (outcome.status === 'error') {
        // The tool failed inside the graph: the app shows the error, as if nothing happened.
        const name = outcome.error?.error;
        if (name === 'ToolFailed' || name === 'ToolTimeout') {
          for (const { approvalId } of answers) await env.connections.disclose(turn, approvalId, 'not-happened');
        }
        return;
      }
      if (outcome.status !== 'success' || !outcome.values) return;
      if (parallel) return discloseEach(env, turn, outcome.values);
      const approval = String(outcome.values['approval'] ?? answer.approvalId);
      await discloseEffects(env, turn, approval, outcome.values);
      // The flow may now pause on a second approval: read the thread's state, as an app does, and show its card.
      if (request.followUp && outcome.values['executed2'] === undefined) {
        await showCards(env, app, interruptIds, turn, await pausedOn(), new Set([approval]));
      }
    });

  const world: World = {
    propose: (turn, req) =>
      asRequest(turn, async () => {
        request = req;
        graph ??= build();
        const approval = `a${++proposals}`;
        const outcome = await runOnce({ input: { approval } });
        // Refused (the thread is busy): the app shows the error, and no card.
        if ('refused' in outcome) return undefined;
        const mine = (await pausedOn()).find((it) => it.value?.approval === approval);
        // Another run on the thread may have moved it on: then there is no card to show for this request.
        if (!mine?.value?.action) return undefined;
        await showCards(env, app, interruptIds, turn, [mine], new Set());
        return { approvalId: approval, action: mine.value.action };
      }),

    proposeMany: (turn, requests) =>
      asRequest(turn, async () => {
        // The model proposes every call in one step; the graph fans out, one interrupt per call.
        const [first, ...more] = requests;
        if (!first) return undefined;
        request = first;
        parallel = more.map((r) => r.alternatives);
        graph ??= build();
        const approvals = requests.map(() => `a${++proposals}`);
        const outcome = await runOnce({ input: { approvals } });
        if ('refused' in outcome) return undefined;
        const mine = interruptsFor(await pausedOn(), approvals);
        if (!mine) return undefined;
        await showCards(env, app, interruptIds, turn, mine, new Set());
        return pendingOf(mine);
      }),

    resume: (turn, answer) => resumeWith(turn, [answer]),

    // Two answers in one request where a resume names interrupts: a map of ids. A map holds each id once, so the same
    // answer twice in one request is the request with it once: only two-approvals is offered it, not replay.
    ...(env.scenario === 'two-approvals' && wiring.resumeBy === 'id' ? { resumeMany: (turn: string, answers: readonly Answer[]) => resumeWith(turn, answers) } : {}),

    ...(wiring.guarded ? { approve: (turn: string, approvalId: string) => app!.approve(turn, approvalId) } : {}),

    async inspect(approvalId) {
      // The server's own read of its checkpointer, past the gate.
      const tuple = (await server.saverClass.prototype.getTuple.call(checkpointer, { configurable: { thread_id: THREAD, checkpoint_ns: '' } })) as TupleLike | undefined;
      return { state: approvalState(pendingApprovals(tuple), approvalId, approvals), version: 0 };
    },

    async contents() {
      // The ops as one key (their gates declare one), the checkpoints by the keys the saver's gates declare.
      return {
        ...saverContents({ saver: checkpointer }, book, wiring.guarded ? 'app' : 'record'),
        [OPS_KEY]: opsText(opsConn.data),
        ...Object.fromEntries(records.records().map((r) => [`guard:${r.id}`, JSON.stringify(r)])),
      };
    },

    async tamper(approvalId, action) {
      // The documented way to edit a thread's state: the server's update-state endpoint, by whoever holds the thread.
      if (!graph) throw new Error('tamper before propose');
      await asRequest('holder', () => client.threads.updateState(THREAD, { values: { action } }));
      void approvalId;
    },

    async snapshot() {
      return {
        ops: opsConn.data,
        checkpoints: checkpointerConn.data,
        disk,
        records: records.records(),
        cards,
        incarnation,
        approvals,
        book,
        request,
        parallel,
        proposals,
        interruptIds,
        built: graph !== undefined,
      };
    },

    async restore(snapshot) {
      const s = snapshot as {
        ops: Record<string, unknown>;
        checkpoints: { storage: unknown; writes: unknown };
        disk: Disk | undefined;
        records: ApprovalRecord[];
        cards: Map<string, string>;
        incarnation: number;
        approvals: Set<string>;
        book: ReturnType<typeof newSaverBook>;
        request: ProposalRequest;
        parallel: readonly (readonly Action[])[] | undefined;
        proposals: number;
        interruptIds: Map<string, string>;
        built: boolean;
      };
      opsConn.data = s.ops;
      checkpointer.storage = s.checkpoints.storage;
      checkpointer.writes = s.checkpoints.writes;
      checkpointerConn.data = s.checkpoints;
      disk = s.disk;
      records = new MemoryGuardStore(s.records);
      ({ approvals, book, request, parallel, proposals, interruptIds, cards } = s);
      app = startApp(s.incarnation);
      graph = s.built ? build() : undefined;
    },

    async restart() {
      // A new process over the same files: the file store reads back its last write; the memory store starts empty.
      newProcess();
      if (env.store === 'file' && disk) {
        // Reading the files back is I/O (the persistence's loader may import modules): the scheduler waits for it.
        opsConn.data = await env.external(server.deserialize(disk.ops));
        const checkpoints = await env.external(server.deserialize(disk.checkpoints));
        checkpointer.storage = checkpoints.storage;
        checkpointer.writes = checkpoints.writes;
        checkpointerConn.data = checkpoints;
      } else {
        empty();
        records = new MemoryGuardStore();
      }
      app = startApp();
      graph = build();
    },

    async close() {
      if (server.hooks === hooks) server.hooks = undefined;
    },
  };
  return world;
}
