// One world: a fresh graph over a fresh checkpointer (the framework's MemorySaver, its SqliteSaver on a database of
// its own, or its PostgresSaver on a schema of its own), driven the way the docs say an app drives it: invoke to the
// interrupt, show the card, resume with a Command.
//
// The SQLite database is held in memory: the same engine running the saver's own SQL on its one connection, without
// a file's fsync and close on every schedule (which cost more than the rest of the run). What a file adds is
// durability across a crash, and a restart keeps exactly that: it reopens the database from its serialized bytes,
// which hold every committed transaction and nothing else (the saver's transactions are synchronous, so none is open
// at a gate).
//
// Guarded wirings add the application's approval guard and nothing else: its records live beside the checkpoints (in
// memory, in the same SQLite database, in the same PostgreSQL schema), so a restart and a snapshot keep exactly what
// they keep of the checkpoints.
import Database from 'better-sqlite3';
import {
  type Action,
  type Answer,
  type ProposalRequest,
  type World,
  type WorldEnv,
} from '@approval-conformance/core/contract';
import { GatedGuardStore, GuardedApp } from '@approval-conformance/core/kit';
import { MemoryGuardStore, type ApprovalRecord, type GuardStore } from '@approval-conformance/guard';
import { SqliteGuardStore } from '@approval-conformance/guard/sqlite';
import { PostgresGuardStore } from '@approval-conformance/guard/postgres';
import { STRICT_RESUME_KEY } from './features.js';
import { gatedSaverClass, newSaverBook, saverContents, TURN_KEY } from './gated-saver.js';
import { discloseEach, discloseEffects, interruptsFor, pendingOf, resumeOf, showCards, type Interrupt } from './app.js';
import { buildGraph, buildParallelGraph } from './graph.js';
import type { LangGraphLib } from './lib.js';
import { approvalState, pendingApprovals, type TupleLike } from './record.js';
import type { Wiring } from './wirings.js';
import { connect, dropSchema, dumpSchema, loadSchema, newSchemaName, takeConnection, type SchemaRows } from './pg-schema.js';

/** Where the PostgreSQL server is: APPROVAL_CONFORMANCE_POSTGRES (the runner's --postgres sets it). */
export const postgresUrl = () => process.env['APPROVAL_CONFORMANCE_POSTGRES'];

const THREAD = 'thread-1';

const SAVERS: Readonly<Record<string, (lib: LangGraphLib) => unknown>> = {
  memory: (lib) => lib.langgraph['MemorySaver'],
  sqlite: (lib) => lib.sqlite?.['SqliteSaver'],
  postgres: (lib) => lib.postgres?.['PostgresSaver'],
};

/** A store opened: the saver, what it runs on, and (guarded) the guard's records beside its checkpoints. */
interface Opened {
  readonly db: Database.Database | undefined;
  readonly pool: ReturnType<typeof connect> | undefined;
  // The saver class is the framework's.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  readonly saver: any;
  readonly guard: GuardStore | undefined;
}

export async function createWorld(lib: LangGraphLib, wiring: Wiring, env: WorldEnv): Promise<World> {
  let approvals = new Set<string>();
  let book = newSaverBook();
  const Base = SAVERS[env.store]?.(lib) as (new (...args: unknown[]) => any) | undefined;
  if (typeof Base !== 'function') throw new Error(`LangGraph ${lib.version} has no saver for store '${env.store}'`);
  const Saver = gatedSaverClass(Base, {
    gate: env.gate,
    external: env.external,
    history: env.history,
    get approvals() {
      return approvals;
    },
    book: () => book,
    keyedWrites: env.store !== 'postgres',
    report: !wiring.guarded,
    accessed: env.accessed,
  });
  const io = <T>(work: T | Promise<T>) => env.external(Promise.resolve(work));
  // PostgreSQL: a schema of the world's own (the same across a restart), dropped at close.
  const schema = newSchemaName();
  let opened = false;
  let url: string | undefined;
  /** Opens the store: for SQLite, a database in memory, empty or from the bytes of one (a restart, a snapshot). */
  const open = async (bytes?: Buffer, records?: readonly ApprovalRecord[]): Promise<Opened> => {
    if (env.store === 'postgres') {
      const given = postgresUrl();
      if (!given) throw new Error('no PostgreSQL server: set APPROVAL_CONFORMANCE_POSTGRES (or pass --postgres URL)');
      url = given;
      // The first open takes a connection a closed world left idle; a restart (a new process) connects anew.
      const first = !opened;
      const pool = first ? takeConnection(url) : connect(url);
      opened = true;
      try {
        const saver = new Saver(pool, undefined, { schema });
        await env.external(saver.setup());
        // The guard's table is made with the saver's, so that a snapshot of the schema holds it from the start.
        const guard = wiring.guarded ? new PostgresGuardStore(pool, { table: `${schema}.approval_guard` }) : undefined;
        await env.external(guard?.setup() ?? Promise.resolve());
        return { db: undefined, pool, saver, guard };
      } catch (error) {
        // Nothing is left behind: a first open drops its schema (no close will come); a restart ends its connection.
        await env.external((first ? dropSchema(url, pool, schema) : pool.end()).catch(() => undefined));
        throw error;
      }
    }
    const db = env.store === 'sqlite' ? new Database(bytes ?? ':memory:') : undefined;
    const guard = !wiring.guarded ? undefined : db ? new SqliteGuardStore(db) : new MemoryGuardStore(records);
    return { db, pool: undefined, saver: db ? new Saver(db) : new Saver(), guard };
  };
  let { db, pool, saver, guard } = await open();

  // Guarded: the client's copy of each card's fingerprint (it outlives a restart), and the app's guard in this
  // process; each start is a new process, named for the guard's recovery.
  let cards = new Map<string, string>();
  let incarnation = 0;
  const startApp = (n = incarnation + 1) => {
    incarnation = n;
    return guard && new GuardedApp(new GatedGuardStore(guard, env.gate, io, env.history), env.backend, cards, `p${n}`);
  };
  let app = startApp();

  let request: ProposalRequest = { alternatives: [] };
  /** The further calls of `proposeMany`: the graph is then the parallel one, each call behind its own interrupt. */
  let parallel: readonly (readonly Action[])[] | undefined;
  let proposals = 0;
  let graph: ReturnType<typeof buildGraph> | undefined;
  let interruptIds = new Map<string, string>();
  const config = (turn: string, extra: Record<string, unknown> = {}) => ({
    configurable: { thread_id: THREAD, [TURN_KEY]: turn, ...extra },
  });

  const build = () =>
    parallel
      ? buildParallelGraph(
          { effectIn: wiring.effectIn },
          { lib: lib.langgraph, fakes: env, history: env.history, alternatives: () => request.alternatives, parallel: () => parallel ?? [], guard: () => app },
          saver,
        )
      : buildGraph(
      {
        effectIn: wiring.effectIn,
        proposalIn: env.scenario === 're-proposal' ? 'interrupt-node' : 'own-node',
        ...(request.followUp ? { followUp: request.followUp } : {}),
      },
      { lib: lib.langgraph, fakes: env, history: env.history, alternatives: () => request.alternatives, guard: () => app },
      saver,
    );

  /** The interrupts the thread is paused on, as the app reads them to show cards. */
  const pausedOn = async (turn: string): Promise<Interrupt[]> => {
    const state = await graph!.getState(config(turn));
    return state.tasks?.flatMap((t: { interrupts?: Interrupt[] }) => t.interrupts ?? []) ?? [];
  };

  /** One resume request with the user's answers: a value (the first answer's), or a map of interrupt ids. */
  const resumeWith = async (turn: string, answers: readonly Answer[]) => {
    if (!graph) throw new Error('resume before propose');
    const answer = answers[0]!;
    const resume = resumeOf(answers, interruptIds, wiring.resumeBy !== 'value');
    const extra = wiring.resumeBy === 'id-strict' ? { [STRICT_RESUME_KEY]: true } : {};
    let result: Record<string, unknown>;
    try {
      result = await graph.invoke(new lib.langgraph['Command']({ resume }), config(turn, extra));
    } catch (error) {
      const name = (error as Error)?.name;
      // A refused resume (strict mode: unknown or consumed interrupt) is the runtime doing its job; the app tells
      // the user nothing definite happened on this click.
      if (name === 'UnknownInterruptError') return;
      // The tool failed inside the graph: the app shows the error, as if nothing happened.
      if (name === 'ToolFailed' || name === 'ToolTimeout') {
        for (const { approvalId } of answers) await env.connections.disclose(turn, approvalId, 'not-happened');
        return;
      }
      throw error;
    }
    // The thread may still wait on a call this request did not answer: its card is already shown.
    if (parallel) return discloseEach(env, turn, result);
    const approval = String(result['approval'] ?? answer.approvalId);
    await discloseEffects(env, turn, approval, result);
    // The flow may now pause on a second approval: read the thread's state, as an app does, and show its card.
    if (request.followUp && result['executed2'] === undefined) {
      await showCards(env, app, interruptIds, turn, await pausedOn(turn), new Set([approval]));
    }
  };

  const world: World = {
    async propose(turn, req) {
      request = req;
      graph ??= build();
      const approval = `a${++proposals}`;
      await graph.invoke({ approval }, config(turn));
      const interrupts = await pausedOn(turn);
      const mine = interrupts.find((it) => it.value?.approval === approval);
      // Another run on the thread may have moved it on: then there is no card to show for this request.
      if (!mine?.value?.action) return undefined;
      await showCards(env, app, interruptIds, turn, [mine], new Set());
      return { approvalId: approval, action: mine.value.action };
    },

    async proposeMany(turn, requests) {
      // The model proposes every call in one step; the graph fans out, one interrupt per call.
      const [first, ...more] = requests;
      if (!first) return undefined;
      request = first;
      parallel = more.map((r) => r.alternatives);
      graph ??= build();
      const approvals = requests.map(() => `a${++proposals}`);
      await graph.invoke({ approvals }, config(turn));
      const mine = interruptsFor(await pausedOn(turn), approvals);
      if (!mine) return undefined;
      await showCards(env, app, interruptIds, turn, mine, new Set());
      return pendingOf(mine);
    },

    resume: (turn, answer) => resumeWith(turn, [answer]),

    // Two answers in one request where a resume names interrupts: a map of ids. A map holds each id once, so the same
    // answer twice in one request is the request with it once: only two-approvals is offered it, not replay.
    ...(env.scenario === 'two-approvals' && wiring.resumeBy !== 'value' ? { resumeMany: (turn: string, answers: readonly Answer[]) => resumeWith(turn, answers) } : {}),

    ...(app ? { approve: (turn: string, approvalId: string) => app!.approve(turn, approvalId) } : {}),

    async inspect(approvalId) {
      // The framework's own read, past the gate.
      const tuple = await env.external<TupleLike | undefined>(Base.prototype.getTuple.call(saver, { configurable: { thread_id: THREAD } }));
      return { state: approvalState(pendingApprovals(tuple), approvalId, approvals), version: 0 };
    },

    // The checkpoints and the guard's records by the keys the gates declare; not on a server, where it costs queries.
    ...(env.store === 'postgres'
      ? {}
      : {
          async contents() {
            const kind = wiring.guarded ? 'app' : 'record';
            const guarded = guard instanceof MemoryGuardStore ? guard.records() : db && guard ? (db.prepare('SELECT record FROM approval_guard').all() as { record: string }[]).map((r) => JSON.parse(r.record) as ApprovalRecord) : [];
            return {
              ...saverContents(db ? { db } : { saver }, book, kind),
              ...Object.fromEntries(guarded.map((r) => [`guard:${r.id}`, JSON.stringify(r)])),
            };
          },
        }),

    async tamper(approvalId, action) {
      // The documented way to edit a thread's state: a new checkpoint, written by whoever holds the store.
      if (!graph) throw new Error('tamper before propose');
      await graph.updateState(config('holder'), { action });
      void approvalId;
    },

    async snapshot() {
      // The saver's own storage: MemorySaver's maps, the SQLite database's bytes, or the PostgreSQL schema's rows.
      // Guarded, the guard's records are in the same database or schema, or copied out of memory.
      const store = pool
        ? await env.external(dumpSchema(pool, schema))
        : db
          ? db.serialize()
          : { storage: saver.storage, writes: saver.writes };
      const records = guard instanceof MemoryGuardStore ? guard.records() : undefined;
      return { store, records, cards, incarnation, approvals, book, request, parallel, proposals, interruptIds, built: graph !== undefined };
    },

    async restore(snapshot) {
      const s = snapshot as {
        store: Uint8Array | SchemaRows | { storage: unknown; writes: unknown };
        records: ApprovalRecord[] | undefined;
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
      if (pool) {
        await env.external(loadSchema(pool, schema, s.store as SchemaRows));
      } else if (db) {
        db.close();
        ({ db, pool, saver, guard } = await open(Buffer.from(s.store as Uint8Array)));
      } else {
        Object.assign(saver, s.store);
        if (guard) guard = new MemoryGuardStore(s.records);
      }
      ({ approvals, book, request, parallel, proposals, interruptIds, cards } = s);
      app = startApp(s.incarnation);
      graph = s.built ? build() : undefined;
    },

    async restart() {
      // A new process: a fresh graph over a fresh saver; MemorySaver starts empty, SqliteSaver reopens what was
      // committed, PostgresSaver connects again to the same schema.
      const committed = db?.serialize();
      db?.close();
      await env.external(pool?.end() ?? Promise.resolve());
      ({ db, pool, saver, guard } = await open(committed));
      app = startApp();
      graph = undefined;
      graph = build();
    },

    async close() {
      db?.close();
      // The schema goes, on the connection the world ended on (a restart's, maybe), which may serve the next world.
      if (pool) await dropSchema(url!, pool, schema);
    },
  };
  return world;
}
