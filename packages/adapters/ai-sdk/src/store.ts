// The chat store of the docs' persistence pattern (load the messages, append, run, save on finish), in memory or in
// SQLite. Its reads and writes are gates, and after each it reports what the transcript says about the approvals.
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { Access, GateFn, Recorder, RecordState } from '@approval-conformance/core';
import type { Message } from './transcript.js';

export const CHAT = 'chat-1';

/** Where the transcript's bytes live. */
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
    this.#file = join(dir, 'chats.sqlite');
    this.#db = this.#open();
  }

  #open() {
    const db = new Database(this.#file);
    db.exec('CREATE TABLE IF NOT EXISTS chats (id TEXT PRIMARY KEY, messages TEXT NOT NULL)');
    return db;
  }

  get = () =>
    (this.#db.prepare('SELECT messages FROM chats WHERE id = ?').get(CHAT) as { messages: string } | undefined)
      ?.messages;
  set = (text: string) =>
    void this.#db
      .prepare('INSERT INTO chats (id, messages) VALUES (?, ?) ON CONFLICT(id) DO UPDATE SET messages = excluded.messages')
      .run(CHAT, text);
  dump = () => this.get();
  load = (dump: unknown) => {
    this.#db.prepare('DELETE FROM chats').run();
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
  /** What a transcript says about each approval it holds. */
  readonly states: (messages: readonly Message[] | undefined) => Map<string, RecordState>;
  readonly book: () => RecordBook;
  /**
   * Whether the transcript is the approval's record, reported as record-read and record-write (default). Not with
   * the approval guard: the guard's record is then the approval's, and the chat store, still gated, is app state.
   */
  readonly report?: boolean;
}

/**
 * The key the chat's accesses declare: one record, the chat's transcript; or, with the approval guard (`report`
 * false), application state the properties never see.
 */
export const chatKey = (report: boolean) => `${report ? 'record' : 'app'}:${CHAT}`;

export class ChatStore {
  readonly #backing: Backing;
  readonly #trace: StoreTrace;

  constructor(kind: string, scratchDir: string, trace: StoreTrace) {
    if (kind !== 'memory' && kind !== 'sqlite') throw new Error(`unknown store '${kind}'; the AI SDK adapter has memory, sqlite`);
    this.#backing = kind === 'sqlite' ? new SqliteBacking(scratchDir) : new MemoryBacking();
    this.#trace = trace;
  }

  /** The app's `loadChat`: undefined for a chat never saved. */
  async load(turn: string): Promise<Message[] | undefined> {
    const gate = `chat.load(${CHAT})`;
    await this.#trace.gate(turn, gate, { access: [{ key: chatKey(this.#trace.report !== false), mode: 'read' }] });
    const messages = this.peek();
    const states = this.#trace.states(messages);
    if (this.#trace.report === false) return messages;
    const { version } = this.#trace.book();
    for (const approvalId of this.#trace.approvals()) {
      const state = states.get(approvalId) ?? 'absent';
      this.#trace.history.emit({ kind: 'record-read', actor: turn, gate, approvalId, version, state });
    }
    return messages;
  }

  /** The app's `saveChat`: the whole transcript replaces the stored one, as in the docs. */
  async save(turn: string, messages: readonly Message[]): Promise<void> {
    const gate = `chat.save(${CHAT})`;
    await this.#trace.gate(turn, gate, { access: [{ key: chatKey(this.#trace.report !== false), mode: 'write' }] });
    this.#backing.set(JSON.stringify(messages));
    const book = this.#trace.book();
    const version = ++book.version;
    const states = this.#trace.states(messages);
    for (const approvalId of new Set([...this.#trace.approvals(), ...states.keys()])) {
      const state = states.get(approvalId) ?? 'absent';
      const from = book.lastStates.get(approvalId) ?? 'absent';
      if (from !== state && this.#trace.report !== false) this.#trace.history.emit({ kind: 'record-write', actor: turn, gate, approvalId, version, from, state });
    }
    book.lastStates = states;
  }

  /** The transcript as stored, read past the gate. */
  peek(): Message[] | undefined {
    const text = this.#backing.get();
    return text === undefined ? undefined : (JSON.parse(text) as Message[]);
  }

  snapshot = () => this.#backing.dump();
  restore = (dump: unknown) => this.#backing.load(dump);
  close = () => this.#backing.close();
}
