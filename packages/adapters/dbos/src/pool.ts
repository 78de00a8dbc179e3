// The system database's pool as the adapter gives it to DBOS (`systemDatabasePool`): DBOS's own pg Pool, with a
// Client whose every statement is one of the world's. A statement a turn's code issues (an endpoint's, or a
// workflow's that a turn's answer woke) waits at a gate first; one no turn issued (DBOS's timers: a poll, a queue
// pass, the notifier) runs where it happens, declared there. Each is awaited through `env.external`, since the
// server answers in its own time, and reported with what it touched, read from the statement.
//
// Notifications (LISTEN/NOTIFY, DBOS's wake-up for `recv` and `getEvent`) are delivered by the server in its own
// time too. So a statement that may have sent one (an insert of a message, a `pg_notify`) is followed, on the same
// connection, by a notification of the adapter's own, and the statement is done only when the listening connection
// has received it: by then it has received everything the statement sent, and DBOS's handler has run. A wake-up is
// then part of the release that caused it, never a race with the next one.
import { clearTimeout as realClear, setTimeout as realTimeout } from 'node:timers';
import type { Access } from '@approval-conformance/core/contract';
import type { Module } from './lib.js';
import { parse, type Statement } from './statements.js';

/** Who is running a statement, as the world decides it. */
export type Caller =
  | {
      readonly kind: 'run';
      /** The turn whose work it is, or none (DBOS's own timers: a poll, a queue pass, the notifier). */
      readonly turn?: string;
      /** Whether it waits at a gate first; if not, its accesses are declared where it runs. */
      readonly gated: boolean;
      readonly label: string;
      readonly access: readonly Access[];
      /** Waiting workflows a message this inserts wakes: filled once it is released (`released`). */
      readonly woke: string[];
    }
  /** The process is dead: nothing it sends reaches the server. */
  | { readonly kind: 'dead' };

export interface PoolHooks {
  /**
   * Whose statement this is, and what it declares (computed from the statement). `inTransaction`: a statement of an
   * open transaction; `opens`: the first statement of one (its BEGIN is sent with it), whose gate is the transaction's.
   */
  caller(statement: Statement, inTransaction: boolean, opens: boolean): Caller | Promise<Caller>;
  /** Released at its gate (or run at once, ungated), just before it is sent: what it wakes is decided now. */
  released(statement: Statement, caller: Caller): void;
  /** After it ran, with its result: report what it touched, and the events it is the record's evidence of. */
  ran(statement: Statement, result: { rows?: unknown[]; rowCount?: number | null; command?: string } | undefined, caller: Caller): void;
  /** The server's answer, awaited outside the gates. */
  external<T>(work: Promise<T>): Promise<T>;
  /** Released at its gate. */
  gate(turn: string, label: string, access: readonly Access[]): Promise<unknown>;
  /**
   * After a statement whose notification woke workflows (`Caller.woke`), and its fence: resolves once each has
   * reached its next gate (or waits again), so that the turn's own code and the workflow's never race to their gates.
   */
  woken(caller: Caller, result: { rowCount?: number | null } | undefined): Promise<void>;
}

/** With DBOS_ADAPTER_DEBUG set, every statement and whose it is, on stderr: for working on the adapter. */
export const debug = (line: () => string) => {
  if (process.env['DBOS_ADAPTER_DEBUG']) process.stderr.write(`${line()}\n`);
};

/** How long a fence may take to arrive before the statement fails (real time). */
const FENCE_MS = 20_000;

/** The adapter's own channel: a notification on it marks the end of what a statement sent. */
export const FENCE_CHANNEL = 'approval_conformance_fence';

/** Statements that may make the server send a notification (a trigger on a message's insert, an explicit notify). */
const notifies = (s: Statement) => s.verb === 'notify' || /\bpg_notify\s*\(/i.test(s.text) || (s.verb === 'insert' && s.tables.some((t) => t === 'notifications' || t === 'workflow_events' || t === 'streams'));

export class DeadProcess extends Error {
  override readonly name = 'DeadProcess';
  constructor() {
    super('the process died: its connection to the system database is gone');
  }
}

/**
 * A pg Pool whose clients run every statement through `hooks`. `application` names the process's sessions on the
 * server, so that a crash can end exactly them.
 */
export function gatedPool(pg: Module, url: string, application: string, hooks: PoolHooks): Module {
  let fences = 0;
  /** Every connection the pool made, for the process's death (`kill`). */
  const clients = new Set<Module>();
  /** The connection that listens (DBOS's notifications client), once it has LISTENed. */
  let listener: Module | undefined;
  const waiting = new Map<string, () => void>();

  class GatedClient extends pg.Client {
    #inTransaction = false;
    /** A BEGIN held until the transaction's first statement. */
    #begin: { config: unknown; params: unknown[] | undefined } | undefined;

    constructor(...args: unknown[]) {
      super(...args);
      // A connection the server ends (a crash's, a world's database dropped) says so here, and nobody is listening.
      this.on('error', () => undefined);
      clients.add(this);
    }
    /** Whether a statement of the open transaction may have sent a notification (sent when it commits). */
    #notifyAtCommit = false;

    connect(callback?: (error?: Error) => void) {
      const connected = hooks.external(Promise.resolve(super.connect()));
      if (!callback) return connected;
      connected.then(() => callback(), (error: Error) => callback(error));
      return undefined;
    }

    query(config: unknown, values?: unknown, callback?: unknown) {
      // pg's own objects (a cursor, a prepared Query) are not DBOS's: pass them through.
      if (config !== null && typeof config === 'object' && typeof (config as { submit?: unknown }).submit === 'function') return super.query(config, values, callback);
      const done = typeof values === 'function' ? (values as (e: Error | null, r?: unknown) => void) : (callback as ((e: Error | null, r?: unknown) => void) | undefined);
      const params = (typeof values === 'function' ? undefined : values) as unknown[] | undefined;
      const text = typeof config === 'string' ? config : String((config as { text?: unknown }).text ?? '');
      const statement = parse(text, params ?? ((config as { values?: unknown[] }).values ?? []));
      const result = this.#run(config, params, statement);
      if (!done) return result;
      result.then((r) => done(null, r), (e: Error) => done(e));
      return undefined;
    }

    async #run(config: unknown, params: unknown[] | undefined, statement: Statement) {
      // A BEGIN says nothing of whose transaction it opens (DBOS's code around a recovered run's end has no workflow in
      // its context; its UPDATE names one): it is held, and sent with the transaction's first statement, whose caller
      // and gate are the transaction's.
      if (statement.verb === 'begin' && !this.#inTransaction) {
        this.#begin = { config, params };
        this.#inTransaction = true;
        return { command: 'BEGIN', rows: [], rowCount: null, fields: [] };
      }
      const begin = this.#begin;
      this.#begin = undefined;
      const caller = await hooks.caller(statement, this.#inTransaction && !begin, begin !== undefined);
      debug(() => `[${application}] ${caller.kind === 'run' ? `${caller.turn ?? '-'}${caller.gated ? ' gate' : ''}` : 'dead'}: ${statement.text.replace(/\s+/g, ' ').slice(0, 110)}`);
      if (caller.kind === 'dead') throw new DeadProcess();
      if (caller.gated && caller.turn !== undefined) await hooks.gate(caller.turn, caller.label, caller.access);
      hooks.released(statement, caller);
      if (begin) await hooks.external(super.query(begin.config, begin.params) as Promise<unknown>);
      const result = (await hooks.external(super.query(config, params) as Promise<{ rows?: unknown[]; rowCount?: number | null; command?: string }>)) ?? undefined;
      if (statement.verb === 'listen' && /\bdbos_notifications_channel\b/.test(statement.text) && listener !== this) await this.#listen();
      const sent = notifies(statement);
      if (statement.verb === 'commit' || statement.verb === 'rollback') {
        const pending = this.#notifyAtCommit && statement.verb === 'commit';
        this.#inTransaction = this.#notifyAtCommit = false;
        hooks.ran(statement, result, caller);
        if (pending) await this.#fence();
        return result;
      }
      hooks.ran(statement, result, caller);
      if (sent && this.#inTransaction) this.#notifyAtCommit = true;
      else if (sent) {
        await this.#fence();
        await hooks.woken(caller, result);
      }
      return result;
    }

    /** This connection is DBOS's listener: it also listens on the adapter's channel, and answers its fences. */
    async #listen() {
      listener = this;
      await hooks.external(super.query(`LISTEN ${FENCE_CHANNEL}`) as Promise<unknown>);
      this.on('notification', (message: { channel: string; payload?: string }) => {
        if (message.channel !== FENCE_CHANNEL || message.payload === undefined) return;
        waiting.get(message.payload)?.();
        waiting.delete(message.payload);
      });
    }

    /** Sends a fence on this connection and waits until the listener has it: everything sent before it has arrived. */
    async #fence() {
      if (!listener) return;
      const id = `${application}-${++fences}`;
      let timer: ReturnType<typeof realTimeout> | undefined;
      const arrived = new Promise<void>((resolve, reject) => {
        waiting.set(id, resolve);
        // On the real clock (node:timers' own, never the virtual one): a notification on loopback arrives in
        // milliseconds, and one that never does would keep the explorer waiting for this query for ever.
        timer = realTimeout(() => reject(new Error(`the listener never received the adapter's notification ${id} (${FENCE_MS / 1000} s)`)), FENCE_MS);
      });
      try {
        await hooks.external(super.query(`SELECT pg_notify($1, $2)`, [FENCE_CHANNEL, id]) as Promise<unknown>);
        await hooks.external(arrived);
      } finally {
        realClear(timer);
        waiting.delete(id);
      }
    }
  }

  // pg-pool's own query runs the statement in a callback of the connect, which runs in the async context of whoever
  // released the connection it gets: the statement would be taken for that code's (another turn's, another
  // workflow's). This one awaits the connection, so the statement runs in its caller's context, as DBOS's own
  // statements on a connection it checked out do.
  class ContextPool extends pg.Pool {
    constructor(...args: unknown[]) {
      super(...args);
    }

    // DBOS ends the pool it was given when it shuts down, up to 4.25.14, and pg waits there for every connection
    // checked out, some of them at gates that will never open: the pool ends in its own time, and nobody waits.
    end() {
      void super.end().catch(() => undefined);
      return Promise.resolve();
    }

    query(text: unknown, values?: unknown, callback?: unknown) {
      const done = typeof values === 'function' ? (values as (e: Error | null, r?: unknown) => void) : (callback as ((e: Error | null, r?: unknown) => void) | undefined);
      const params = typeof values === 'function' ? undefined : values;
      const result = (async () => {
        const client = await this.connect();
        try {
          const answer = await client.query(text, params);
          client.release();
          return answer;
        } catch (error) {
          client.release(error);
          throw error;
        }
      })();
      if (!done) return result;
      result.then((r) => done(null, r), (e: Error) => done(e));
      return undefined;
    }
  }

  // No idle timeout: pg's would be a timer, and a world's connections live as long as its process.
  const pool = new ContextPool({ connectionString: url, application_name: application, Client: GatedClient, idleTimeoutMillis: 0, max: 20 });
  pool.on('error', () => undefined);
  return Object.assign(pool, {
    /**
     * The process died: nothing of its code runs on what its connections hear from now on (the server ending them,
     * a notification). Without this, DBOS's handlers would, where a dead process has none (up to 4.25.14 its listener's
     * error handler releases a connection its shutdown already released, and throws).
     */
    kill() {
      for (const client of clients) {
        client.removeAllListeners('error');
        client.removeAllListeners('notification');
        client.on('error', () => undefined);
      }
    },
  });
}
