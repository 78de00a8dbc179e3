// The app's store for the serialized RunState (`state.toString()` saved, `RunState.fromString` on load), one
// conversation's state under one key, in memory or in SQLite. Its reads and writes are gates, and after each it
// reports what the serialized state says about the approvals.
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { Access, GateFn, Recorder, RecordState } from '@approval-conformance/core';

export const CONVERSATION = 'conversation-1';

/** Where the serialized state's bytes live. */
interface Backing {
  get(): string | undefined;
  set(text: string): void;
  /** Bytes to snapshot, and how to put them back. */
  dump(): unknown;
  load(dump: unknown): void;
  close(): void;
}

class MemoryBacking implements Backing {
  #text: string | undefined;
  get = () => this.#text;
  set = (text: string) => void (this.#text = text);
  dump = () => this.#text;
  load = (dump: unknown) => void (this.#text = dump as string | undefined);
  close = () => {};
}

class SqliteBacking implements Backing {
  #db: Database.Database;
  readonly #file: string;

  constructor(dir: string) {
    this.#file = join(dir, 'states.sqlite');
    this.#db = this.#open();
  }

  #open() {
    const db = new Database(this.#file);
    db.exec('CREATE TABLE IF NOT EXISTS run_states (id TEXT PRIMARY KEY, state TEXT NOT NULL)');
    return db;
  }

  get = () =>
    (this.#db.prepare('SELECT state FROM run_states WHERE id = ?').get(CONVERSATION) as { state: string } | undefined)
      ?.state;
  set = (text: string) =>
    void this.#db
      .prepare('INSERT INTO run_states (id, state) VALUES (?, ?) ON CONFLICT(id) DO UPDATE SET state = excluded.state')
      .run(CONVERSATION, text);
  dump = () => this.get();
  load = (dump: unknown) => {
    this.#db.prepare('DELETE FROM run_states').run();
    if (typeof dump === 'string') this.set(dump);
  };
  close = () => this.#db.close();
}

/** The suite's bookkeeping about the record, kept across restarts and snapshots. */
export interface RecordBook {
  /** The record's version: how many saves have landed. */
  version: number;
  /** Each approval's state after the last save. */
  lastStates: Map<string, RecordState>;
}

export const newRecordBook = (): RecordBook => ({ version: 0, lastStates: new Map() });

export interface StoreTrace {
  readonly gate: GateFn;
  readonly history: Recorder;
  /** The approvals the world knows of, so a read can report each. */
  readonly approvals: () => Iterable<string>;
  /** What a serialized state says about each approval it holds. */
  readonly states: (text: string | undefined) => Map<string, RecordState>;
  readonly book: () => RecordBook;
  /**
   * Whether the serialized state is the approval's record, reported as record-read and record-write (default). Not
   * with the approval guard: the guard's record is then the approval's, and this store, still gated, is app state.
   */
  readonly report?: boolean;
}

/** The key the store's accesses declare: the record, or (guarded) application state the properties never see. */
export const stateKey = (report: boolean) => `${report ? 'record' : 'app'}:${CONVERSATION}`;

export class StateStore {
  readonly #backing: Backing;
  readonly #trace: StoreTrace;

  constructor(kind: string, scratchDir: string, trace: StoreTrace) {
    if (kind !== 'memory' && kind !== 'sqlite') throw new Error(`unknown store '${kind}'; the OpenAI Agents adapter has memory, sqlite`);
    this.#backing = kind === 'sqlite' ? new SqliteBacking(scratchDir) : new MemoryBacking();
    this.#trace = trace;
  }

  /** The app's load: the serialized state, or undefined for a conversation never saved. */
  async load(turn: string): Promise<string | undefined> {
    const gate = `state.load(${CONVERSATION})`;
    const report = this.#trace.report !== false;
    await this.#trace.gate(turn, gate, { access: [{ key: stateKey(report), mode: 'read' }] });
    const text = this.peek();
    const states = this.#trace.states(text);
    if (!report) return text;
    const { version } = this.#trace.book();
    for (const approvalId of this.#trace.approvals()) {
      const state = states.get(approvalId) ?? 'absent';
      this.#trace.history.emit({ kind: 'record-read', actor: turn, gate, approvalId, version, state });
    }
    return text;
  }

  /** The app's save: `state.toString()` replaces the stored state. */
  async save(turn: string, text: string): Promise<void> {
    const gate = `state.save(${CONVERSATION})`;
    const report = this.#trace.report !== false;
    await this.#trace.gate(turn, gate, { access: [{ key: stateKey(report), mode: 'write' }] });
    this.put(turn, gate, text);
  }

  /** A write past the gates (the state's holder tampering with it), reported like a save. */
  put(actor: string, gate: string, text: string): void {
    this.#backing.set(text);
    const book = this.#trace.book();
    const version = ++book.version;
    const states = this.#trace.states(text);
    for (const approvalId of new Set([...this.#trace.approvals(), ...states.keys()])) {
      const state = states.get(approvalId) ?? 'absent';
      const from = book.lastStates.get(approvalId) ?? 'absent';
      if (from !== state && this.#trace.report !== false) this.#trace.history.emit({ kind: 'record-write', actor, gate, approvalId, version, from, state });
    }
    book.lastStates = states;
  }

  /** The serialized state as stored, read past the gate. */
  peek(): string | undefined {
    return this.#backing.get();
  }

  snapshot = () => this.#backing.dump();
  restore = (dump: unknown) => this.#backing.load(dump);
  close = () => this.#backing.close();
}
