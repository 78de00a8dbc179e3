// The session service a world keeps: ADK's `InMemorySessionService`, or its `DatabaseSessionService` (see
// `postgres.ts`). Nothing of ADK's is replaced: the service's own `getSession` and `appendEvent` are wrapped on the
// instance, each call a request makes is a gate, and after each the world reads the stored events past the gates and
// reports what they say about the approvals: a read as record-read, a write that changed an approval as record-write.
// The wrapper also stamps each event it passes on with the world's own clock, one second after the last: ADK orders
// a database session's events by their timestamps and tells a stale copy by them, and in a real deployment a model's
// answer or a tool's run takes time, where here one request's events would share a millisecond (or not) by chance.
import { type Access, type GateFn, type Recorder, type RecordState } from '@approval-conformance/core/contract';
import { memoryGuardRecords, type GuardRecords } from '@approval-conformance/core/kit';
import { maybeRequest } from './context.js';
import type { AdkLib } from './lib.js';
import { describeEvent, recordStates, type Any } from './record.js';

export const APP = 'approvals';
export const USER = 'user-1';

export interface SessionTrace {
  readonly gate: GateFn;
  readonly history: Recorder;
  readonly external: <T>(work: Promise<T>) => Promise<T>;
  /** Whether the events are the approvals' record (not with the approval guard, whose record is then the approval's). */
  readonly report: boolean;
  readonly accessed: (access: Access, call?: string) => void;
}

/** Where a store keeps a session's events, past the service's own methods. */
export interface Backing {
  /** The session's id in the store: worlds that share a store (a database schema) each have their own. */
  readonly sessionId: string;
  /** A service over the store: the first one, or a new process's after a restart. */
  open(): Promise<Any>;
  /** The stored events, as plain data. */
  read(service: Any): Promise<Any[]>;
  /** Replaces the stored events (a restored snapshot, the holder's edit). */
  write(service: Any, events: readonly Any[]): Promise<void>;
  /** Lets go of a service (a new process replaces it, the world ends). */
  close(service: Any): Promise<void>;
  /** The world has ended: drop what it made in a store other worlds share (after `close`). */
  end?(): Promise<void>;
  /** The approval guard's records (guarded wirings), in the same store: durable where the session is. */
  guardRecords(service: Any): GuardRecords;
  /** Whether `read` is cheap enough to run around every release (the check of declarations): memory only. */
  readonly cheap: boolean;
  /**
   * Whether the service's `appendEvent` does the same whatever the stored session holds (`Access.blind`): ADK's
   * `InMemorySessionService` pushes the event (or replaces one of its id) and applies its state delta, and returns
   * the event it was given. Not the database service, which refuses an event for a stale copy of the session.
   */
  readonly blindAppends: boolean;
}

const plain = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

/** The in-memory service: its own map of sessions, gone with the process. */
export const memoryBacking = (lib: AdkLib): Backing => {
  const sessionId = 's1';
  const stored = (service: Any) => service.sessions?.[APP]?.[USER]?.[sessionId];
  return {
    sessionId,
    open: async () => new lib.adk.InMemorySessionService(),
    read: async (service) => plain(stored(service)?.events ?? []),
    async write(service, events) {
      const session = stored(service);
      if (!session) throw new Error('the in-memory session service has no session to write');
      session.events = plain(events);
      session.lastUpdateTime = events.at(-1)?.timestamp ?? session.lastUpdateTime;
    },
    close: async () => {},
    guardRecords: () => memoryGuardRecords(),
    cheap: true,
    blindAppends: true,
  };
};

/** The suite's bookkeeping about the record and the world's clock, kept across restarts and snapshots. */
export interface Book {
  version: number;
  lastStates: [string, RecordState][];
  /** The last stamp given to an event. */
  clock: number;
}

export class Sessions {
  #service: Any;
  book: Book = { version: 0, lastStates: [], clock: 0 };

  private constructor(
    readonly backing: Backing,
    readonly trace: SessionTrace,
  ) {}

  /** A world's sessions: a service over the store, and the conversation's session in it (made outside any request). */
  static async open(backing: Backing, trace: SessionTrace): Promise<Sessions> {
    const sessions = new Sessions(backing, trace);
    sessions.#service = sessions.#gated(await trace.external(backing.open()));
    const session = await trace.external(Promise.resolve(sessions.#service.createSession({ appName: APP, userId: USER, sessionId: backing.sessionId })));
    sessions.book.clock = Number(session?.lastUpdateTime) || 0;
    return sessions;
  }

  /** The service the runner uses, gated. */
  get service(): Any {
    return this.#service;
  }

  get sessionId(): string {
    return this.backing.sessionId;
  }

  #key = () => `${this.trace.report ? 'record' : 'app'}:session`;

  #gated(service: Any): Any {
    const get = service.getSession.bind(service);
    const append = service.appendEvent.bind(service);
    service.getSession = async (args: Any) => {
      const request = maybeRequest();
      if (!request) return get(args);
      const gate = 'getSession';
      await this.trace.gate(request.turn, gate, { access: [{ key: this.#key(), mode: 'read' }] });
      const session = await this.#observed(gate, () => get(args));
      await this.#report(request.turn, gate, 'read', session?.events ?? []);
      return session;
    };
    service.appendEvent = async (args: Any) => {
      const request = maybeRequest();
      // A partial event is never stored (every version skips it before touching the store).
      if (!request || args?.event?.partial) return append(args);
      // Blind only as application state (with the guard), where no property reads the session.
      const access: Access = { key: this.#key(), mode: 'write', ...(this.backing.blindAppends ? { blind: true } : {}) };
      const gate = `appendEvent(${describeEvent(args.event, args.session?.events ?? [])})`;
      this.book.clock += 1000;
      args.event.timestamp = this.book.clock;
      await this.trace.gate(request.turn, gate, { access: [access] });
      const event = await this.#observed(gate, () => append(args));
      await this.#report(request.turn, gate, 'write');
      return event;
    };
    return service;
  }

  /**
   * Runs one call of the service and reports what it did to the stored session, seen from the store, never from the
   * gate's declaration: every call looks the session up (a read). Where the store is cheap to read (memory), what a
   * release wrote is seen around it (`contents`); on a database, where nothing reads the store around releases, a
   * call after which the stored events differ wrote them (only appends are compared: the database service's
   * `getSession` only selects).
   */
  async #observed<T>(call: string, work: () => T | Promise<T>): Promise<T> {
    const compare = !this.backing.cheap && call.startsWith('appendEvent');
    const before = compare ? JSON.stringify(await this.events()) : undefined;
    const result = await this.trace.external(Promise.resolve(work()));
    this.trace.accessed({ key: this.#key(), mode: 'read' }, call);
    if (before !== undefined && JSON.stringify(await this.events()) !== before) this.trace.accessed({ key: this.#key(), mode: 'write' }, call);
    return result;
  }

  /** The stored events, past the gates. */
  events = (): Promise<Any[]> => this.trace.external(this.backing.read(this.#service));

  /** After an access: what the record now says about each approval. */
  async #report(actor: string, gate: string, mode: 'read' | 'write', seen?: readonly Any[]): Promise<void> {
    if (!this.trace.report) return;
    const states = recordStates(seen ?? (await this.events()));
    if (mode === 'read') {
      for (const [approvalId, state] of states) this.trace.history.emit({ kind: 'record-read', actor, gate, approvalId, version: this.book.version, state });
      return;
    }
    this.book.version += 1;
    const last = new Map(this.book.lastStates);
    for (const [approvalId, state] of states) {
      const from = last.get(approvalId) ?? 'absent';
      if (from !== state) this.trace.history.emit({ kind: 'record-write', actor, gate, approvalId, version: this.book.version, from, state });
      last.set(approvalId, state);
    }
    this.book.lastStates = [...last];
  }

  /** Whoever holds the store changes its events (`actor` does it; a write of the record, reported). */
  async edit(actor: string, change: (events: Any[]) => void): Promise<void> {
    const events = await this.events();
    change(events);
    await this.trace.external(this.backing.write(this.#service, events));
    await this.#report(actor, 'edit the stored session', 'write');
  }

  /** What a record read past the gates says about an approval, and the record's version. */
  async inspect(approvalId: string): Promise<{ state: RecordState; version: number }> {
    return { state: recordStates(await this.events()).get(approvalId) ?? 'absent', version: this.book.version };
  }

  /** The stored session as text, for the check of declarations (where reading it is cheap). */
  async contents(): Promise<Record<string, string>> {
    return this.backing.cheap ? { [this.#key()]: JSON.stringify(await this.events()) } : {};
  }

  async snapshot(): Promise<{ events: Any[]; book: Book }> {
    return { events: await this.events(), book: structuredClone(this.book) };
  }

  async restore(snapshot: { events: Any[]; book: Book }): Promise<void> {
    await this.trace.external(this.backing.write(this.#service, snapshot.events));
    this.book = structuredClone(snapshot.book);
  }

  /** A new process: a new service over the store (in memory: empty, and the session gone). */
  async restart(): Promise<void> {
    await this.trace.external(this.backing.close(this.#service));
    this.#service = this.#gated(await this.trace.external(this.backing.open()));
  }

  async close(): Promise<void> {
    await this.backing.close(this.#service);
    await this.backing.end?.();
  }
}
