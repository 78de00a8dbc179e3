// One world: a system database of its own (a copy of the version's migrated template), DBOS launched over it with
// the adapter's gated pool, and the documented app (app.ts) driven through its endpoints: propose starts the agent
// workflow and shows its card, resume sends the answer and tells the user what the workflow says happened.
//
// Whose statement is whose. An endpoint's statements are its turn's. A workflow's code runs in DBOS's own context,
// started by the endpoint that proposed it; once it waits in `recv` (parked), the turn whose message wakes it owns
// what it does next, until it waits again: its gates are that turn's, so a crash of that turn is the process dying
// inside the workflow's steps too. What no turn owns (DBOS's timers: a parked workflow's poll, the queue runner, the
// notifier) runs where it happens, declared there. After a restart the process is new: the recovered workflows are
// owned by the first turn that answers them (its process runs them), and DBOS's own recovery decides what they do.
//
// The approval's record, unguarded, is the workflow's durable state: the card published is the record written
// (unspent); `recv` reading back its own recorded output is the record read (spent once it has one); and the
// transaction that consumes a message and records it as `recv`'s output is the spend, a compare-and-set (a message
// is consumed only while unconsumed). Guarded, the guard's record in the same database is the approval's, and DBOS's
// state is application state (`app:<workflow>`), reported nothing.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Access, Action, Answer, ProposalRequest, World, WorldEnv } from '@approval-conformance/core/contract';
import { postgresGuardRecords, WorldGuard } from '@approval-conformance/core/kit';
import { agentWorkflow, CARD_EVENT, outcomeEvent, TOPIC, type AgentHost, type AgentRequest, type Card, type Decision, type Outcome } from './app.js';
import type { Databases } from './database.js';
import { listenersSince, type DbosLib, type Module } from './lib.js';
import { debug, gatedPool, type Caller, type PoolHooks } from './pool.js';
import { accessesOf, labelOf, workflowsOf, type Statement } from './statements.js';

/** How long an endpoint waits for the workflow's event: DBOS.getEvent's own default. */
const GET_EVENT_TIMEOUT_SECONDS = 60;

/** The guard's table, made in the template (every world's copy has it). */
export const GUARD_TABLE = 'approval_guard';

export interface WiringSpec {
  /** `send`'s idempotency key for an answer, or none (the docs' default). */
  readonly sendKey?: (approvalId: string) => string;
  readonly guarded: boolean;
}

/**
 * DBOS's registrations and its launch are module state, so a process runs one world at a time. A world whose run was
 * given up before it closed (its creation never came back) is torn down by the next.
 */
let unclosed: (() => Promise<void>) | undefined;

export async function dbosWorld(env: WorldEnv, lib: DbosLib, databases: Databases, spec: WiringSpec): Promise<World> {
  const { sdk, pg } = lib;
  await unclosed?.();
  const { DBOS } = sdk;
  const workflow = agentWorkflow(sdk);
  const io = <T>(work: Promise<T>) => env.external(work);
  const db = await io(databases.clone());

  debug(() => `WORLD ${db.name}`);

  /** The workflows this world started: what a statement's parameters may name. */
  const known = new Set<string>();
  /**
   * Each approval's workflow, the function id of the `recv` that waits for its answer once seen, and its record as
   * the committed statements left it (what `inspect` reads).
   */
  const approvals = new Map<string, { readonly wf: string; recv?: number; state: 'absent' | 'unspent' | 'spent'; version: number }>();
  /** The turn that owns what a workflow does now (see above); none while it waits. */
  const owners = new Map<string, string>();
  /** Workflows waiting in `recv` for an answer, and who waits for them to get there. */
  const parked = new Set<string>();
  const parkWaiters = new Map<string, (() => void)[]>();
  /** Per workflow: the card it is publishing, the approval whose answer it waits for, and its open transaction. */
  const showing = new Map<string, string>();
  const waitingFor = new Map<string, { readonly approvalId: string }>();
  const open = new Map<string, { card?: string; consumed?: boolean; recorded?: boolean }>();
  /** The turn an endpoint runs for; around a workflow's start, the workflow (its run, and DBOS's code around it). */
  const frames = new AsyncLocalStorage<{ readonly turn?: string; readonly workflow?: string }>();
  let proposals = 0;
  let runs = 0;
  let generation = 1;

  const guard = spec.guarded
    ? new WorldGuard(env, () => {
        const client = new pg.Client({ connectionString: db.url, application_name: 'guard' });
        client.on('error', () => undefined);
        const connected = client.connect();
        const queryable = { query: async (text: string, params?: unknown[]) => (await connected, client.query(text, params)) };
        const records = postgresGuardRecords(queryable as never, GUARD_TABLE);
        return { ...records, close: () => void client.end().catch(() => undefined) };
      })
    : undefined;

  const wfOf = (approvalId: string) => approvals.get(approvalId)?.wf;
  /** The turn that owns the workflow whose code runs now (a step's: the model's, the tool's). */
  const turnNow = () => {
    const wf = DBOS.workflowID as string | undefined;
    const turn = wf === undefined ? undefined : owners.get(wf);
    if (turn === undefined) throw broken(`the workflow ${wf ?? ''} acted with no turn to own it`);
    return turn;
  };
  /**
   * What went wrong in the adapter itself, inside DBOS's code (which would take it for the step's failure, and the app
   * for a transfer that did not go through): kept, and thrown by the next resume and by close, so the cell reads
   * error rather than a verdict.
   */
  let fault: Error | undefined;
  const broken = (message: string) => (fault ??= new Error(`the DBOS adapter: ${message}`));
  const faulted = () => {
    if (fault) throw fault;
  };

  /** The workflow the running code belongs to: DBOS's context inside it, the adapter's around its start and end. */
  const workflowNow = (): string | undefined => (DBOS.workflowID as string | undefined) ?? frames.getStore()?.workflow;

  /** The approval whose answer `wf` waits for, if `statement` is recv reading back its own output (the record read). */
  const recvCheck = (statement: Statement, wf: string | undefined): string | undefined => {
    const approvalId = wf === undefined ? undefined : waitingFor.get(wf)?.approvalId;
    if (approvalId === undefined || statement.verb !== 'select' || !statement.tables.includes('operation_outputs') || !/function_id\s*=\s*\$2/i.test(statement.text)) return undefined;
    const record = approvals.get(approvalId)!;
    const fid = Number(statement.params[1]);
    // The first such read is recv's own; the next is its timeout's deadline, at the next function id.
    record.recv ??= fid;
    return record.recv === fid ? approvalId : undefined;
  };

  /**
   * What a statement declares: the parts of DBOS's state it touches, and the record where it is evidence of it (recv
   * reading back its output; the COMMIT of the transaction that published a card or recorded recv's output).
   */
  const declaration = (statement: Statement, wf: string | undefined): Access[] => {
    const tx = wf === undefined ? undefined : open.get(wf);
    if (statement.verb === 'commit') {
      const evidence = !spec.guarded && tx && (tx.card !== undefined || tx.recorded) ? [{ key: `record:${wf}`, mode: 'write' as const }] : [];
      return evidence;
    }
    const read = !spec.guarded && recvCheck(statement, wf) !== undefined ? [{ key: `record:${wf}`, mode: 'read' as const }] : [];
    return [...accessesOf(statement, known), ...read];
  };

  /** The hooks of one process (generation): once it has died, its statements reach nothing. */
  const hooksOf = (mine: number): PoolHooks => ({
    async caller(statement, inTransaction, opens): Promise<Caller> {
      if (mine !== generation) return { kind: 'dead' };
      const wf = workflowNow();
      // A waiting workflow whose own timer ended its wait (recv's timeout) goes on by itself, with no turn: it writes
      // (the wait's end) where a wait's polls only read. It runs when every turn waits, as its timer fires.
      if (wf !== undefined && parked.has(wf) && (statement.writes || opens)) {
        parked.delete(wf);
        alone.add(wf);
      }
      // A workflow no turn owns that is not waiting in recv (one a restart recovered): its work is the next turn's
      // that answers it, as that turn's process runs it.
      if (wf !== undefined && !owners.has(wf) && !parked.has(wf) && !alone.has(wf)) await ownerOf(wf);
      if (mine !== generation) return { kind: 'dead' };
      const named = workflowsOf(statement, known);
      let turn = wf !== undefined ? owners.get(wf) : frames.getStore()?.turn;
      // DBOS's own code for one workflow's run, outside its context (a queue's dispatch, a recovered run's end): that
      // run's owner's work.
      if (turn === undefined && wf === undefined && named.length === 1 && !/pg_notify/i.test(statement.text)) turn = owners.get(named[0]!);
      if (opens && wf !== undefined) open.set(wf, {});
      const access = declaration(statement, wf);
      const label = labelOf(statement, named);
      const where = (gated: boolean): Caller => ({ kind: 'run', ...(turn === undefined ? {} : { turn }), gated: gated && turn !== undefined, label, access, woke: [] });
      if (turn === undefined) return where(false);
      // A transaction runs whole in the release of its first statement (its BEGIN is sent with it): its statements see
      // what others committed before it, and nothing another turn does falls inside it (a statement waiting on its
      // locks would never return). Each of DBOS's transactions on the app's paths reads at most one statement's worth
      // of what other turns write (recv's consume of a message), so running it whole loses no outcome; a crash falls
      // before it or after its COMMIT, where a crash inside it (a rollback) leaves the same. Its statements after the
      // first are declared where they run.
      if (opens) {
        if (wf !== undefined) {
          moving.add(wf);
          hasMoved(wf);
        }
        return where(true);
      }
      if (inTransaction) return where(false);
      // An endpoint waiting for an event (getEvent's reads, until the event is there or the wait gives up): each event
      // it waits for is an outcome, written once (the card, which a follow-up rewrites, is read once the workflow
      // waits, when nothing writes it), so what the wait returns does not depend on when it reads, only on whether the
      // event is written before the wait's timer fires, which it does only when every turn is blocked. Its reads are
      // declared where they happen, with no gate.
      if (wf === undefined && statement.verb === 'select' && statement.tables.length === 1 && statement.tables[0] === 'workflow_events') return where(false);
      if (wf !== undefined) {
        // A workflow's statement no other turn can see or change the outcome of runs where it happens, declared
        // there (see quiet); its first after a wait has a gate, so that its code runs in a release of its own.
        if (moving.has(wf) && quiet(statement, wf, access)) return where(false);
        moving.add(wf);
        hasMoved(wf);
      }
      return where(true);
    },
    released(statement, caller) {
      // A message for a workflow that waits: the sender's turn owns what it does once woken. Decided here, when the
      // insert is sent, not at its gate (another turn's message may be released first and wake it); undone in `ran`
      // if the insert added no row (an idempotency key already there: no notification, the workflow waits on).
      if (caller.kind !== 'run' || caller.turn === undefined || statement.verb !== 'insert' || !statement.tables.includes('notifications')) return;
      for (const dest of workflowsOf(statement, known)) {
        if (!parked.has(dest)) continue;
        caller.woke.push(dest);
        own(dest, caller.turn);
        expectMove(dest);
      }
    },
    ran(statement, result, caller) {
      if (caller.kind === 'dead') return;
      for (const a of caller.access) {
        // The record is the world's evidence, not a statement's: its access goes with the events, where they are
        // emitted (observe).
        if (a.key.startsWith('record:')) {
          if (!caller.gated) env.declare(a);
          continue;
        }
        env.accessed(a, statement.text.replace(/\s+/g, ' ').slice(0, 80));
        if (!caller.gated) env.declare(a);
      }
      // A message that was not inserted (its idempotency key was there already) sent no notification: the workflow
      // it would have woken still waits (it has sent nothing since), and nobody owns it.
      if (caller.turn !== undefined && (result?.rowCount ?? 0) === 0) {
        for (const dest of caller.woke) if (owners.get(dest) === caller.turn && !moving.has(dest)) park(dest);
      }
      observe(statement, result, caller);
    },
    external: io,
    gate: (turn, label, access) => {
      debug(() => `GATE ${turn} ${label}`);
      return env.gate(turn, label, { access, overtakes: true });
    },
    async woken(caller, result) {
      if (caller.kind === 'dead' || (result?.rowCount ?? 0) === 0) return;
      await Promise.all(caller.woke.map((wf) => moved.get(wf)));
    },
  });

  /** Per workflow a message woke: resolves when it reaches its next gate, or waits again. */
  const moved = new Map<string, Promise<void>>();
  const movers = new Map<string, () => void>();
  const expectMove = (wf: string) => moved.set(wf, new Promise<void>((resolve) => movers.set(wf, resolve)));
  const hasMoved = (wf: string) => {
    movers.get(wf)?.();
    movers.delete(wf);
  };

  /**
   * Whether a workflow's statement outside a transaction needs no gate: a read of its own run (status, inputs, step
   * outputs) or events. Only the workflow's execution writes those (one execution at a time in this app's worlds: a
   * crash ends a process before its recovery starts another, though DBOS lets a re-dispatch run beside a stale
   * execution elsewhere; and DBOS's timers, which touch a run's status, fire only when every turn waits), so such a
   * read returns what the execution wrote, whatever the other turns do. What does have a gate: every transaction
   * (its first statement), every write outside one (seen at once, and a crash may fall on either side of it), whatever
   * touches the workflow's messages (which other turns send), and the reads that are the record's evidence. A crash
   * then falls before each durable change, as it can.
   */
  const quiet = (statement: Statement, wf: string, access: readonly Access[]) =>
    statement.verb !== 'begin' && !statement.writes && access.every((a) => a.key.startsWith(`app:${wf}/`) && !a.key.startsWith(`app:${wf}/messages`));
  /** Workflows running now, whose statements since their last wait had a gate. */
  const moving = new Set<string>();
  /** Workflows going on by themselves after a wait their own timer ended: no turn owns them. */
  const alone = new Set<string>();

  /** A workflow waits in recv: nobody owns it until a message wakes it. */
  const park = (wf: string) => {
    parked.add(wf);
    owners.delete(wf);
    moving.delete(wf);
    alone.delete(wf);
    hasMoved(wf);
    for (const resolve of parkWaiters.get(wf) ?? []) resolve();
    parkWaiters.delete(wf);
  };
  /** `turn` owns what `wf` does now. */
  const own = (wf: string, turn: string) => {
    parked.delete(wf);
    moving.delete(wf);
    owners.set(wf, turn);
    for (const resolve of ownerWaiters.get(wf) ?? []) resolve();
    ownerWaiters.delete(wf);
  };
  const ownerWaiters = new Map<string, (() => void)[]>();
  const ownerOf = (wf: string) => new Promise<void>((resolve) => ownerWaiters.set(wf, [...(ownerWaiters.get(wf) ?? []), resolve]));
  const parkedPromise = (wf: string) => (parked.has(wf) ? Promise.resolve() : new Promise<void>((resolve) => parkWaiters.set(wf, [...(parkWaiters.get(wf) ?? []), resolve])));

  /** The record's evidence in what a statement of a workflow did (unguarded), and where a workflow waits. */
  const observe = (statement: Statement, result: { rows?: unknown[]; rowCount?: number | null; command?: string } | undefined, caller: Caller) => {
    const wf = workflowNow();
    if (wf === undefined || caller.kind === 'dead') return;
    const rows = result?.rows ?? [];
    const actor = caller.kind === 'run' ? caller.turn : undefined;
    const emit = !spec.guarded && actor !== undefined;
    // recv's check for a message: none there, so the workflow waits (until a message's notification wakes it).
    if (statement.verb === 'select' && statement.tables.includes('notifications') && waitingFor.has(wf) && rows.length === 0) {
      park(wf);
      return;
    }
    const tx = open.get(wf);
    if (statement.verb === 'insert' && statement.tables.includes('workflow_events') && statement.params[1] === CARD_EVENT && showing.has(wf)) {
      if (tx) tx.card = showing.get(wf);
    }
    if (statement.verb === 'update' && statement.tables.includes('notifications') && /consumed\s*=\s*true/i.test(statement.text) && rows.length > 0) {
      if (tx) tx.consumed = true;
    }
    const approvalId = waitingFor.get(wf)?.approvalId;
    const recv = approvalId === undefined ? undefined : approvals.get(approvalId)?.recv;
    if (recv !== undefined && statement.verb === 'insert' && statement.tables.includes('operation_outputs') && Number(statement.params[1]) === recv) {
      if (tx) tx.recorded = true;
    }
    // recv reads back its own output first: the approval's record, spent once recv has recorded one.
    if (approvalId !== undefined && caller.kind === 'run' && caller.access.some((a) => a.key === `record:${wf}` && a.mode === 'read')) {
      if (emit) env.history.emit({ kind: 'record-read', actor, approvalId, version: rows.length > 0 ? 2 : 1, state: rows.length > 0 ? 'spent' : 'unspent' });
    }
    if (statement.verb === 'rollback') open.delete(wf);
    if (statement.verb === 'commit' && tx) {
      open.delete(wf);
      // PostgreSQL answers the COMMIT of a transaction that failed with a rollback: nothing it wrote is there.
      if (result?.command !== undefined && result.command !== 'COMMIT') return;
      if (tx.card !== undefined) {
        const record = approvals.get(tx.card);
        if (record) Object.assign(record, { state: 'unspent', version: 1 });
        if (emit) env.history.emit({ kind: 'record-write', actor, approvalId: tx.card, version: 1, from: 'absent', state: 'unspent' });
        showing.delete(wf);
      }
      // The answer taken and recorded as recv's output, in one transaction: the spend (a message is taken only while
      // it is unconsumed). A recv that timed out records its null output the same way: the card can be answered no
      // more.
      if (approvalId !== undefined && tx.recorded) {
        const record = approvals.get(approvalId);
        if (record) Object.assign(record, { state: 'spent', version: 2 });
        if (emit) env.history.emit({ kind: 'record-write', actor, approvalId, version: 2, from: 'unspent', state: 'spent', ...(tx.consumed ? { conditional: true } : {}) });
      }
    }
  };

  const host: AgentHost = {
    async decide(alternatives): Promise<Card> {
      const turn = turnNow();
      const action = await env.model.decide(turn, 'propose', alternatives);
      const approvalId = `a${++proposals}`;
      approvals.set(approvalId, { wf: DBOS.workflowID as string, state: 'absent', version: 0 });
      env.history.emit({ kind: 'proposed', actor: turn, approvalId, action, world: env.backend.world });
      if (guard) await guard.app.propose(turn, approvalId, action, env.backend.world);
      return { approvalId, action };
    },
    async showing(card) {
      showing.set(DBOS.workflowID as string, card.approvalId);
    },
    async waiting(card, recv) {
      const wf = DBOS.workflowID as string;
      const record = approvals.get(card.approvalId);
      // The record's evidence is read from DBOS's statements: a version whose SQL the adapter does not know would
      // show none, and no property would see the record. Said, never passed over.
      if (!spec.guarded && (record === undefined || record.state === 'absent')) throw broken(`no statement of ${wf} was seen to publish ${card.approvalId}'s card`);
      // A process's own entry: a dead process's recv, ending later, must not take the live one's.
      const entry = { approvalId: card.approvalId };
      waitingFor.set(wf, entry);
      try {
        const answer = await recv();
        if (!spec.guarded && record?.recv === undefined) throw broken(`no statement of ${wf} was seen to be recv's read of its own output`);
        return answer;
      } finally {
        if (waitingFor.get(wf) === entry) waitingFor.delete(wf);
      }
    },
    async act(card): Promise<Outcome> {
      const turn = turnNow();
      const dispatch = `${turn}/${card.approvalId}`;
      if (!guard) {
        try {
          await env.backend.call(turn, { approvalId: card.approvalId, dispatch, action: card.action });
        } catch (error) {
          // The tool's own failure (it threw, or its transport timed out) is the step's, as the app handles it.
          if ((error as Error).name !== 'ToolFailed' && (error as Error).name !== 'ToolTimeout') throw broken(`the tool's step failed: ${(error as Error).message}`);
          throw error;
        }
        return 'happened';
      }
      const outcome = await guard.app.run(turn, card.approvalId, card.action, dispatch);
      return outcome === 'ran' || outcome === 'ran-before' ? 'happened' : outcome === 'unknown' ? 'unknown' : 'not-happened';
    },
  };

  /**
   * DBOS's process stops as a process dies: it waits for none of its workflows. Its shutdown waits for the workflows
   * running in it up to 4.26.10 (after, only when asked to), and a world's are parked at gates that will never open
   * (a crash) or wait in recv on a clock that has stopped (the run is over): that wait is the one thing made not to
   * happen, in the executor's system database, and the rest of DBOS's shutdown runs as it is.
   */
  const die = async () => {
    const sysdb = lib.executor['DBOSExecutor']?.globalInstance?.systemDatabase;
    if (sysdb && typeof sysdb.awaitRunningWorkflows === 'function') sysdb.awaitRunningWorkflows = async () => {};
    try {
      await DBOS.shutdown();
    } finally {
      forgetListeners();
    }
  };

  /** Takes out the lifecycle listeners the running process's launch added (`listenersSince`). */
  let forgetListeners = () => {};

  let pool: Module | undefined;

  /** The world is done: its process stops, its database goes (dropped while the next world runs). */
  let tornDown = false;
  const teardown = async () => {
    if (tornDown) return;
    tornDown = true;
    try {
      generation++;
      pool?.kill();
      await die().catch(() => undefined);
      // The pool ends in its own time (its connections end with the database); nothing of it is kept.
      pool?.end();
      pool = undefined;
      guard?.close();
      databases.dispose(db.name);
    } finally {
      workflow.host = undefined;
      if (unclosed === teardownRef) unclosed = undefined;
    }
  };
  const teardownRef = () => teardown();
  unclosed = teardownRef;

  /** Launches DBOS, a new process, over the world's database. */
  const launch = async () => {
    const mine = generation;
    pool = gatedPool(pg, db.url, `p${mine}`, hooksOf(mine));
    DBOS.setConfig({
      name: 'approval-app',
      systemDatabaseUrl: db.url,
      systemDatabasePool: pool,
      runMigrations: false,
      executorID: 'local',
      applicationVersion: 'v1',
      logLevel: 'error',
      // The notifier's flush of setEvent's wake-ups: every 10 ms by default, a timer that would fire some twelve
      // thousand times while late-answer waits out recv's two minutes. Its wake-ups come when every turn waits
      // either way (the virtual clock), so a second changes only how often it runs.
      notificationCoalesceMs: 1000,
    });
    workflow.host = host;
    forgetListeners = listenersSince(lib);
    // Launch reads files (the package's version) on the thread pool, which the scheduler does not see: it waits for the
    // launch as for a query. Nothing in it waits on a turn (the recovery it starts runs when its queue's timer fires).
    await io(DBOS.launch());
  };
  await launch();

  const start = (turn: string, request: AgentRequest) =>
    frames.run({ turn }, async () => {
      const wf = `agent-${++runs}`;
      known.add(wf);
      own(wf, turn);
      const waited = parkedPromise(wf);
      await frames.run({ workflow: wf }, () => DBOS.startWorkflow(workflow.agent, { workflowID: wf })(request));
      // The card is published before the workflow waits: read it once the workflow waits (reading it meanwhile would
      // race the workflow to the gates, which are both this turn's).
      await waited;
      const card = (await DBOS.getEvent(wf, CARD_EVENT, GET_EVENT_TIMEOUT_SECONDS)) as Card | null;
      return card ?? undefined;
    });

  const world: World = {
    async propose(turn, request: ProposalRequest) {
      const card = await start(turn, { alternatives: request.alternatives, ...(request.followUp ? { followUp: request.followUp } : {}) });
      if (!card) return undefined;
      await frames.run({ turn }, () => env.connections.deliverCard(turn, card.approvalId, card.action));
      return card;
    },

    // Two agent runs, each waiting on its own card (the docs' agent asks for one approval per workflow).
    async proposeMany(turn, requests) {
      const cards: Card[] = [];
      for (const request of requests) {
        const card = await start(turn, { alternatives: request.alternatives });
        if (!card) return undefined;
        cards.push(card);
      }
      for (const card of cards) await frames.run({ turn }, () => env.connections.deliverCard(turn, card.approvalId, card.action));
      return cards;
    },

    answerTimeout: 120_000,

    async resume(turn, answer: Answer) {
      const wf = wfOf(answer.approvalId);
      if (!wf) return;
      await frames.run({ turn }, async () => {
        // A recovered run no turn owns yet: this turn's process runs it.
        if (!owners.has(wf) && !parked.has(wf) && !alone.has(wf)) own(wf, turn);
        const decision: Decision = answer.approved ? 'approve' : 'deny';
        const key = spec.sendKey?.(answer.approvalId);
        await DBOS.send(wf, decision, TOPIC, ...(key === undefined ? [] : [key]));
        const outcome = (await DBOS.getEvent(wf, outcomeEvent(answer.approvalId), GET_EVENT_TIMEOUT_SECONDS)) as Outcome | null;
        faulted();
        // The wait gave up with no outcome (the tutorial's endpoint answers an error): the user is told it failed.
        await env.connections.disclose(turn, answer.approvalId, outcome ?? 'not-happened');
      });
    },

    ...(guard ? { approve: (turn: string, approvalId: string) => guard.app.approve(turn, approvalId) } : {}),

    async inspect(approvalId) {
      if (guard) return guard.inspect(approvalId);
      const record = approvals.get(approvalId);
      return { state: record?.state ?? 'absent', version: record?.version ?? 0 };
    },

    // The process dies: its sessions end on the server (their open transactions roll back), DBOS is shut down as
    // the dead process (nothing it sends arrives), and a new process launches over the same database, recovering
    // what the old one left pending, as DBOS recovers on a restart.
    async restart() {
      const dead = generation++;
      pool?.kill();
      await io(databases.terminate(db.name, `p${dead}`));
      owners.clear();
      parked.clear();
      open.clear();
      moving.clear();
      alone.clear();
      showing.clear();
      waitingFor.clear();
      // A workflow a message woke in the dead process never moves again: whoever waited for it (the dead turn) is gone.
      for (const resolve of movers.values()) resolve();
      movers.clear();
      await die();
      await launch();
      guard?.restart();
    },

    // The guard's records by the key its gates declare, for the check of declarations (DBOS's own state is read by no
    // property: its accesses are checked against the statements instead).
    ...(guard ? { contents: () => guard.contents() } : {}),

    async close() {
      await teardown();
      faulted();
    },
  };
  return world;
}
