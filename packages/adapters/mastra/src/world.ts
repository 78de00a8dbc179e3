// One world: Mastra over its own storage (an InMemoryStore, or a LibSQL file under one or two Mastra instances), an
// agent over the adversary's model and the tools, and the approval workflow. Mastra keeps a suspended run in its
// snapshot storage, so a restart is a new Mastra over the same storage (memory: empty). Guarded wirings add the
// approval guard's store (of the same kind) and the app's guard calls; the guard's record is then the approval's.
import { type ProposalRequest, type World, type WorldEnv } from '@approval-conformance/core/contract';
import { WorldGuard, type WorldGuardSnapshot } from '@approval-conformance/core/kit';
import * as agentApp from './agent-app.js';
import { openGuardRecords } from './guard-store.js';
import type { MastraLib } from './lib.js';
import { buildModel, type Brain } from './model.js';
import { OneTimeApprovals } from './one-time.js';
import { AGENT_LOOP, agentPending, workflowPending } from './record.js';
import { gateWorkflows, RecordBook, RunNames, workflowsDomain, type RawWorkflows } from './storage.js';
import { openStorage, processes, processOf, storeKind } from './stores.js';
import { editCall, editProposal } from './tampering.js';
import { buildTools } from './tools.js';
import type { Wiring } from './wirings.js';
import * as workflowApp from './workflow-app.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;

/** One process: a Mastra instance over its storage object, with its agent and workflow. */
interface Process {
  readonly agent: Any;
  readonly workflow: Any;
  readonly raw: RawWorkflows;
  /** The process's storage object, closed when the process goes (its LibSQL client holds the file open). */
  readonly storage: Any;
  /** The Mastra instance, whose module-level hooks are released when the process goes. */
  readonly mastra: Any;
  /** one-time-approval: the process's Set of approved fingerprints, which its agent's beforeToolCall hook consumes. */
  readonly oneTime?: OneTimeApprovals;
}

/** Numbers each world, for its run ids (see `RunNames`). */
let worlds = 0;

export async function createWorld(lib: MastraLib, wiring: Wiring, env: WorldEnv): Promise<World> {
  const kind = storeKind(env.store);
  let request: ProposalRequest = { alternatives: [] };
  let proposals = 0;
  let runCount = 0;
  let world = `w${++worlds}`;
  const book = new RecordBook();
  const runs = new Map<string, string>();
  const external = <T>(work: Promise<T>) => env.external(work);

  const guarded = wiring.guarded ? new WorldGuard(env, () => openGuardRecords(kind, () => env.scratchDir)) : undefined;
  const guard = guarded && (() => guarded.app);
  const effects = { backend: env.backend, ...(guard ? { guard } : {}) };
  const brain: Brain = {
    model: env.model,
    backend: env.backend,
    history: env.history,
    request: () => request,
    nextApproval: () => `a${++proposals}`,
  };
  const trace = {
    gate: env.gate,
    history: env.history,
    external,
    pendingOf: wiring.protocol === 'agent' ? agentPending : workflowPending,
    names: new RunNames(),
    report: !guarded,
    accessed: env.accessed,
    declare: env.declare,
  };

  async function start(index: number): Promise<Process> {
    const storage: Any = openStorage(lib, kind, () => env.scratchDir);
    await external(Promise.resolve(storage.init?.()));
    const raw = gateWorkflows(await external(workflowsDomain(storage)), book, trace);
    // The docs put the hook on the agent: a run's own hooks would not reach the request that approves.
    const oneTime = wiring.oneTime ? new OneTimeApprovals(env, index) : undefined;
    const agent = new lib.agent['Agent']({
      id: 'assistant',
      name: 'assistant',
      instructions: 'Do what the user asks with the tools.',
      model: buildModel(brain),
      tools: buildTools(lib, effects),
      ...(oneTime ? { hooks: { beforeToolCall: oneTime.beforeToolCall } } : {}),
    });
    const workflow = workflowApp.buildWorkflow(lib, brain, effects);
    const mastra = new lib.mastra['Mastra']({ agents: { assistant: agent }, workflows: { [workflowApp.WORKFLOW]: workflow }, storage, logger: false });
    return { agent: mastra.getAgent('assistant'), workflow: mastra.getWorkflow(workflowApp.WORKFLOW), raw, storage, mastra, ...(oneTime ? { oneTime } : {}) };
  }
  const startAll = async () => {
    const started: Process[] = [];
    for (let i = 0; i < processes(kind); i++) started.push(await start(i));
    return started;
  };
  let procs = await startAll();
  const proc = (turn: string) => procs[processOf(kind, turn)]!;

  const shows = { connections: env.connections, ...(guard ? { guard } : {}) };
  const nextRunId = () => `run-${++runCount}.${world}`;
  const fingerprints = new Map<string, string>();
  const agentSide: agentApp.AgentApp = {
    ...shows,
    agent: (turn) => proc(turn).agent,
    runs,
    nextRunId,
    ...(wiring.oneTime ? { oneTime: (turn: string) => proc(turn).oneTime!, fingerprints } : {}),
  };
  const workflowSide: workflowApp.WorkflowApp = { ...shows, workflow: (turn) => proc(turn).workflow, runs, nextRunId };
  const rowsOf = wiring.protocol === 'agent' ? [AGENT_LOOP, 'executionWorkflow'] : [workflowApp.WORKFLOW];

  const theWorld: World = {
    async propose(turn, req) {
      request = req;
      return wiring.protocol === 'agent' ? agentApp.propose(agentSide, turn) : workflowApp.propose(workflowSide, turn);
    },

    // Two approvals at once are two suspended runs, each started by its own message: Mastra's agent suspends on one
    // call at a time (given two calls in one step, it asks for the second only once the first is answered), and a
    // workflow run suspends at its one confirm step.
    async proposeMany(turn, requests) {
      const pending = [];
      for (const req of requests) {
        const paused = await theWorld.propose(turn, req);
        if (!paused) return undefined;
        pending.push(paused);
      }
      return pending;
    },

    resume: (turn, answer) => (wiring.protocol === 'agent' ? agentApp.resume(agentSide, turn, answer) : workflowApp.resume(workflowSide, turn, answer)),

    ...(guarded ? { approve: (turn: string, approvalId: string) => guarded.app.approve(turn, approvalId) } : {}),

    async inspect(approvalId) {
      if (guarded) return guarded.inspect(approvalId);
      const runId = book.runs.get(approvalId);
      if (runId === undefined) return { state: 'absent', version: 0 };
      const states = await book.statesOf(runId, procs[0]!.raw.read, trace.pendingOf);
      return { state: states.get(approvalId) ?? 'absent', version: book.version(runId) };
    },

    // Each run's rows, by the key its gates declare (`record:run-1`), and the guard's records; the LibSQL file only
    // through the gates' own I/O, so not here.
    async contents() {
      const rows = kind === 'memory' ? await procs[0]!.raw.dump() : [];
      const runs: Record<string, string> = {};
      for (const row of rows.sort((a: Any, b: Any) => `${a.runId}/${a.workflowName}`.localeCompare(`${b.runId}/${b.workflowName}`))) {
        const key = `${guarded ? 'app' : 'record'}:${trace.names.peek(row.runId)}`;
        runs[key] = `${runs[key] ?? ''}${row.workflowName}:${JSON.stringify(row.snapshot)};`;
      }
      const sets = Object.assign({}, ...procs.map((p) => p.oneTime?.contents() ?? {}));
      return { ...runs, ...sets, ...(await guarded?.contents()) };
    },

    // InMemoryStore keeps the snapshot object a persist hands it, and the workflow engine goes on changing that
    // object as the run goes: a run's rows change in memory between the calls that write them.
    ...(kind === 'memory' ? { changesInPlace: (key: string) => /^(record|app):/.test(key) } : {}),

    async tamper(approvalId, action) {
      // The holder of the storage edits the approved call wherever the stored snapshots hold it (the agent's loop and
      // the run it executes tools in, under the run's id or an id of its own) and writes them back.
      const runId = runs.get(approvalId);
      if (runId === undefined) throw new Error(`no run holds ${approvalId} to tamper with`);
      const { raw } = procs[0]!;
      const mention = wiring.protocol === 'agent' ? `"toolCallId":"${approvalId}"` : `"approvalId":"${approvalId}"`;
      for (const row of await raw.dump()) {
        if (!(row.runId === runId && rowsOf.includes(row.workflowName)) && !JSON.stringify(row.snapshot).includes(mention)) continue;
        const edited = wiring.protocol === 'agent' ? editCall(row.snapshot, approvalId, action) : editProposal(row.snapshot, approvalId, action);
        await raw.persist('holder', row.workflowName, row.runId, edited);
      }
    },

    async snapshot() {
      return {
        rows: await procs[0]!.raw.dump(),
        book: book.dump(),
        runs: [...runs],
        fingerprints: [...fingerprints],
        request,
        proposals,
        runCount,
        names: trace.names.dump(),
        ...(guarded ? { guard: await guarded.snapshot() } : {}),
      };
    },

    async restore(snapshot) {
      const s = snapshot as {
        rows: Any[];
        book: ReturnType<RecordBook['dump']>;
        runs: [string, string][];
        fingerprints: [string, string][];
        request: ProposalRequest;
        proposals: number;
        runCount: number;
        names: [string, string][];
        guard?: WorldGuardSnapshot;
      };
      // The snapshot's run ids are another world's: this world takes them over under its own suffix.
      const ours = (text: string) => text.replace(/(run-\d+)\.w\d+/g, `$1.${world}`);
      const rows = JSON.parse(ours(JSON.stringify(s.rows))) as Any[];
      await procs[0]!.raw.load(rows);
      book.load(JSON.parse(ours(JSON.stringify(s.book))));
      runs.clear();
      for (const [approvalId, runId] of s.runs) runs.set(approvalId, ours(runId));
      // The client's fingerprints; the processes' Sets are empty at a snapshot (only a click adds to them).
      fingerprints.clear();
      for (const [approvalId, fingerprint] of s.fingerprints) fingerprints.set(approvalId, fingerprint);
      ({ request, proposals, runCount } = s);
      trace.names.load(s.names);
      if (guarded && s.guard) await guarded.restore(s.guard);
    },

    async restart() {
      // A new process (or two): Mastra held nothing but what its storage kept; memory starts empty, LibSQL reopens.
      await external(closeAll(procs));
      procs = await startAll();
      guarded?.restart();
    },

    async close() {
      await closeAll(procs);
      guarded?.close();
    },
  };
  // A workflow's run object stays cached in the process that started it, and a later request in that process resumes
  // through it: a world rebuilt from stored rows would resume otherwise. Workflow worlds therefore run their setup
  // every time instead of restoring it (the agent's resume reads everything from storage).
  if (wiring.protocol === 'workflow') {
    const { snapshot: _s, restore: _r, ...rest } = theWorld;
    return rest;
  }
  return theWorld;
}

/**
 * Closes what each process holds open, for a worker runs thousands of worlds: a LibSQL client holds its file (and the
 * file's WAL) open until it is closed (1.x's LibSQLStore has `close`; older ones expose the client), and every Mastra
 * registers a scorer hook on a module-level emitter that keeps the whole instance alive until it is released (1.x
 * releases it with `__unregisterHooks`; older versions cannot, and keep each world's Mastra in memory).
 */
async function closeAll(procs: readonly Process[]): Promise<void> {
  for (const { storage, mastra } of procs) {
    mastra.__unregisterHooks?.();
    if (typeof storage.close === 'function') await storage.close();
    else if (storage.client && !storage.client.closed) storage.client.close();
  }
}
