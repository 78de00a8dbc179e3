// An application's store of its one record (the chat transcript of the AI SDK's docs, the serialized RunState of
// OpenAI Agents), as a world keeps it: its reads and writes are gates, and after each it reports what the stored value
// says about the approvals (record-read, record-write). The bookkeeping (the record's version, each approval's last
// state, the approvals seen) outlives a restart and goes into the world's snapshot.
import type { RecordState } from '../history/events.js';
import type { Recorder } from '../history/recorder.js';
import type { Access, GateFn } from '../scheduler/gate.js';
import type { TextBacking } from './text-backing.js';

export interface AppRecordSpec<T> {
  /** The store's name in its gates' labels: `${name}.load(${id})`, `${name}.save(${id})`. */
  readonly name: string;
  /** The one record's id (the chat, the conversation). */
  readonly id: string;
  readonly encode: (value: T) => string;
  readonly decode: (text: string) => T;
  /** What a stored value says about each approval it holds. */
  readonly states: (value: T | undefined) => Map<string, RecordState>;
}

export interface AppRecordTrace {
  readonly gate: GateFn;
  readonly history: Recorder;
  /**
   * Whether the stored value is the approval's record, reported as record-read and record-write. Not with the
   * approval guard: the guard's record is then the approval's, and this store, still gated, is app state.
   */
  readonly report: boolean;
  /** Where each load and save is reported for the check of declarations (`WorldEnv.accessed`). */
  readonly accessed?: (access: Access, call?: string) => void;
}

interface Book {
  /** How many saves have landed. */
  version: number;
  /** Each approval's state after the last save. */
  lastStates: Map<string, RecordState>;
}

export interface AppRecordSnapshot {
  readonly text: unknown;
  readonly version: number;
  readonly lastStates: [string, RecordState][];
  readonly known: string[];
}

export class GatedAppRecord<T> {
  readonly #open: () => TextBacking;
  readonly #spec: AppRecordSpec<T>;
  readonly #trace: AppRecordTrace;
  #backing: TextBacking;
  #book: Book = { version: 0, lastStates: new Map() };
  /** The approvals any stored value has held, so that a read reports each. */
  #known = new Set<string>();

  constructor(open: () => TextBacking, spec: AppRecordSpec<T>, trace: AppRecordTrace) {
    this.#open = open;
    this.#spec = spec;
    this.#trace = trace;
    this.#backing = open();
  }

  /** The key its accesses declare: the record, or (guarded) application state the properties never see. */
  get key(): string {
    return `${this.#trace.report ? 'record' : 'app'}:${this.#spec.id}`;
  }

  /** The record's version: how many saves have landed. */
  get version(): number {
    return this.#book.version;
  }

  /** What `value` says about each approval, noting the approvals it holds. */
  states(value: T | undefined): Map<string, RecordState> {
    const found = this.#spec.states(value);
    for (const approvalId of found.keys()) this.#known.add(approvalId);
    return found;
  }

  /** The app's load: the stored value, or undefined for a record never saved. */
  async load(turn: string): Promise<T | undefined> {
    const gate = `${this.#spec.name}.load(${this.#spec.id})`;
    await this.#trace.gate(turn, gate, { access: [{ key: this.key, mode: 'read' }] });
    return this.#read(turn, gate);
  }

  /**
   * The app's read and write with nothing between them (a Map's get and delete in one tick, one SQL statement): one
   * gate. `change` gets the stored value and returns the value to store (undefined: store nothing) and what to give
   * back. Reported as a read and, where it stores, a compare-and-set (the write happened on what was just read and
   * depends on it: a take); `{ blind: true }` reports the write as a plain one (an insert beside what is there).
   */
  async update<R>(
    turn: string,
    name: string,
    change: (value: T | undefined) => { readonly value?: T; readonly result: R },
    options: { readonly blind?: boolean } = {},
  ): Promise<R> {
    const gate = `${this.#spec.name}.${name}(${this.#spec.id})`;
    await this.#trace.gate(turn, gate, { access: [{ key: this.key, mode: 'write' }] });
    const { value, result } = change(this.#read(turn, gate));
    if (value !== undefined) this.#store(turn, gate, value, options.blind !== true);
    return result;
  }

  /**
   * The stored value, each approval it says something of reported as read. The check of declarations hears of the
   * backing's read here, where it happens, never from what the gate declared (`WorldEnv.accessed`).
   */
  #read(turn: string, gate: string): T | undefined {
    const value = this.peek();
    this.#trace.accessed?.({ key: this.key, mode: 'read' }, gate);
    const states = this.states(value);
    if (!this.#trace.report) return value;
    for (const approvalId of this.#known) {
      const state = states.get(approvalId) ?? 'absent';
      this.#trace.history.emit({ kind: 'record-read', actor: turn, gate, approvalId, version: this.#book.version, state });
    }
    return value;
  }

  /** The app's save: `value` replaces the stored one. */
  async save(turn: string, value: T): Promise<void> {
    const gate = `${this.#spec.name}.save(${this.#spec.id})`;
    await this.#trace.gate(turn, gate, { access: [{ key: this.key, mode: 'write' }] });
    this.#store(turn, gate, value);
  }

  /** A gated write: stored (`put`), and the backing's write reported where it happens, as `#read` reports a read. */
  #store(turn: string, gate: string, value: T, conditional = false): void {
    this.put(turn, gate, value, conditional);
    this.#trace.accessed?.({ key: this.key, mode: 'write' }, gate);
  }

  /** A write past the gates (the record's holder tampering with it), reported like a save. */
  put(actor: string, gate: string, value: T, conditional = false): void {
    this.#backing.set(this.#spec.encode(value));
    const book = this.#book;
    const version = ++book.version;
    const states = this.states(value);
    for (const approvalId of new Set([...this.#known, ...states.keys()])) {
      const state = states.get(approvalId) ?? 'absent';
      const from = book.lastStates.get(approvalId) ?? 'absent';
      if (from !== state && this.#trace.report) {
        this.#trace.history.emit({ kind: 'record-write', actor, gate, approvalId, version, from, state, ...(conditional ? { conditional } : {}) });
      }
    }
    book.lastStates = states;
  }

  /** The stored value, read past the gates. */
  peek(): T | undefined {
    const text = this.#backing.get();
    return text === undefined ? undefined : this.#spec.decode(text);
  }

  /** What the stored value says about `approvalId`, read past the gates: a world's `inspect`. */
  inspect(approvalId: string): { state: RecordState; version: number } {
    return { state: this.states(this.peek()).get(approvalId) ?? 'absent', version: this.#book.version };
  }

  /** The stored text by the key its gates declare, for the check of declarations (`World.contents`). */
  contents(): Record<string, string> {
    return { [this.key]: this.#backing.get() ?? '' };
  }

  snapshot(): AppRecordSnapshot {
    const { version, lastStates } = this.#book;
    return { text: this.#backing.dump(), version, lastStates: [...lastStates], known: [...this.#known] };
  }

  restore(snapshot: AppRecordSnapshot): void {
    this.#backing.load(snapshot.text);
    this.#book = { version: snapshot.version, lastStates: new Map(snapshot.lastStates) };
    this.#known = new Set(snapshot.known);
  }

  /** A new process: the backing opened again (memory: empty; SQLite: the same file); the bookkeeping stays. */
  restart(): void {
    this.#backing.close();
    this.#backing = this.#open();
  }

  close(): void {
    this.#backing.close();
  }
}
