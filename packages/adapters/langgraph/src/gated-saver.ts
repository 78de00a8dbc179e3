// The checkpointer as the suite sees it: a subclass of the framework's own saver (MemorySaver, SqliteSaver) whose
// reads and writes are gates, tied to the turn by a configurable key that LangGraph passes to every saver call. The
// saver's own code does the work. After each write it reports how the approvals' record changed.
//
// LangGraph fires put/putWrites without awaiting them, so a turn often has several gates pending: the scheduler
// tracks gates, not turns. Checkpoint ids are random (uuid6 with a clock); the gates and history name checkpoints
// by order of first appearance in the world, so schedules and histories compare equal across runs.
import type { Access, GateFn, Recorder, RecordState } from '@approval-conformance/core/contract';
import { approvalState, pendingApprovals } from './record.js';

export const TURN_KEY = 'ac_turn';

export interface Config {
  configurable?: Record<string, unknown>;
}

/** The turn a call belongs to: LangGraph passes the invoke's configurable keys to every node and saver call. */
export const turnOf = (config: Config) => String(config?.configurable?.[TURN_KEY] ?? 'unknown');

// The saver classes are the framework's; their signatures differ by version.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type SaverClass = new (...args: any[]) => any;

/** The suite's bookkeeping about one world's checkpoints, kept across restarts and snapshots. */
export interface SaverBook {
  /** `cp3` for the third checkpoint id seen in the world. */
  readonly names: Map<string, string>;
  /** `task2` for the second task id seen in the world. */
  readonly tasks: Map<string, string>;
  /** The record's version: how many writes have landed in this world. */
  version: number;
  /** Approvals ever seen pending. */
  readonly seen: Set<string>;
  /** Each approval's state after the last write. */
  lastStates: Map<string, RecordState>;
}

export function newSaverBook(): SaverBook {
  return { names: new Map(), tasks: new Map(), version: 0, seen: new Set(), lastStates: new Map() };
}

export interface SaverTrace {
  readonly gate: GateFn;
  /** Awaits the saver's own I/O outside the gates (a PostgreSQL server answers later; the others at once). */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  readonly external: (work: Promise<any>) => Promise<any>;
  readonly history: Recorder;
  /** Approvals the world knows of, so a record write can say which changed. */
  readonly approvals: Set<string>;
  readonly book: () => SaverBook;
  /** Whether the saver stores each checkpoint and each task's writes under keys of their own (not PostgresSaver). */
  readonly keyedWrites: boolean;
  /**
   * Whether the checkpoints are the approvals' record in the history (record-read, record-write). Not with the
   * approval guard: its record is the one spent before the action runs; the checkpoints stay gated as app state.
   */
  readonly report: boolean;
  /** Each call of the saver, reported for the check of declarations (`WorldEnv.accessed`). */
  readonly accessed: (access: Access, call?: string) => void;
  /** Whose code a call is, where that is not the invoke's configurable key (a server's worker makes it). */
  readonly turnOf?: (config: Config) => string;
}

// The record is the thread's checkpoints. A read (the latest checkpoint and its writes) may see any of it. A write
// touches one part: a checkpoint (`put`, keyed by its id), or one task's writes to a checkpoint (`putWrites`, keyed
// by checkpoint and task: a task's writes to the same checkpoint replace or keep each other, by index). MemorySaver
// and SqliteSaver store exactly those keys, so writes to different ones leave the same store in either order, and the
// latest checkpoint is the newest id whichever was put first. PostgresSaver also shares channel values between
// checkpoints (its blobs table, keyed by channel and version), so there every write is to the whole record.
// With the guard, the checkpoints are application state (`app:`), reported as nothing.

/**
 * The report after a write, keyed by a symbol rather than private: a saver the framework made itself (the LangGraph
 * server's singleton) is given this class's prototype, and a private method would refuse it as a receiver.
 */
const WROTE = Symbol('wrote');

export function gatedSaverClass(Base: SaverClass, trace: SaverTrace): SaverClass {
  const turnOfCall = trace.turnOf ?? turnOf;
  /** `cp3`: the third checkpoint id this world has seen. */
  const cp = (id: unknown) => {
    const { names } = trace.book();
    if (typeof id !== 'string') return 'cp?';
    if (!names.has(id)) names.set(id, `cp${names.size + 1}`);
    return names.get(id)!;
  };
  /** `task2`: the second task id this world has seen. */
  const task = (id: string) => {
    const { tasks } = trace.book();
    if (!tasks.has(id)) tasks.set(id, `task${tasks.size + 1}`);
    return tasks.get(id)!;
  };
  const kind = trace.report ? 'record' : 'app';
  const READ: Access[] = [{ key: `${kind}:checkpoints`, mode: 'read' }];
  const WHOLE: Access[] = [{ key: `${kind}:checkpoints`, mode: 'write' }];
  const write = (part: string): Access[] => (trace.keyedWrites ? [{ key: `${kind}:${part}`, mode: 'write' }] : WHOLE);

  /**
   * What each call of the saver did, as the check of declarations hears it: made here from the saver method that ran
   * and the part its arguments name, never from what the gate declared. A read (`getTuple`, `list`) may see the whole
   * thread; a `put` stores one checkpoint and a `putWrites` one task's writes (the whole record where the saver
   * shares rows between checkpoints). Writes are also seen in the store itself, around each release (`contents`).
   */
  const observed = {
    read: (call: string) => trace.accessed({ key: `${kind}:checkpoints`, mode: 'read' }, call),
    stored: (call: string, part: string) => trace.accessed({ key: `${kind}:${trace.keyedWrites ? part : 'checkpoints'}`, mode: 'write' }, call),
  };

  const threadOf = (config: Config) => String(config?.configurable?.['thread_id'] ?? '?');

  /**
   * The approvals by name (a1, a1.2, a2): the order the saver lists a checkpoint's pending writes in follows its task
   * ids, which are drawn afresh in every run, so the history reports the approvals in an order of its own.
   */
  const inOrder = (approvals: ReadonlySet<string>) => [...approvals].sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));

  return class GatedSaver extends Base {
    async getTuple(config: Config) {
      const turn = turnOfCall(config);
      const gate = `checkpoint.getTuple(${threadOf(config)})`;
      await trace.gate(turn, gate, { access: READ });
      const tuple = await trace.external(super.getTuple(config));
      observed.read(gate);
      const pending = pendingApprovals(tuple);
      const { version, seen } = trace.book();
      for (const approvalId of trace.report ? inOrder(trace.approvals) : []) {
        trace.history.emit({
          kind: 'record-read',
          actor: turn,
          gate,
          approvalId,
          version,
          state: approvalState(pending, approvalId, seen),
        });
      }
      if (tuple) cp(tuple.config?.configurable?.checkpoint_id);
      return tuple;
    }

    async put(config: Config, checkpoint: { id: string }, ...rest: unknown[]) {
      const turn = turnOfCall(config);
      const name = cp(checkpoint.id);
      const gate = `checkpoint.put(${threadOf(config)}, ${name})`;
      await trace.gate(turn, gate, { access: write(name) });
      const result = await trace.external(super.put(config, checkpoint, ...rest));
      observed.stored(gate, name);
      await this[WROTE](turn, gate, config);
      return result;
    }

    async putWrites(config: Config, writes: ReadonlyArray<readonly [string, unknown]>, taskId: string) {
      const turn = turnOfCall(config);
      const channels = writes.map(([channel]) => channel).join('+');
      const where = cp(config?.configurable?.['checkpoint_id']);
      const gate = `checkpoint.putWrites(${threadOf(config)}, ${where}, ${channels})`;
      await trace.gate(turn, gate, { access: write(`${where}/${task(taskId)}`) });
      const result = await trace.external(super.putWrites(config, writes, taskId));
      observed.stored(gate, `${where}/${task(taskId)}`);
      await this[WROTE](turn, gate, config);
      return result;
    }

    /** A listing (the state's history), not gated: reported, so that a turn that lists is seen to read. */
    async *list(config: Config, ...rest: unknown[]) {
      observed.read(`checkpoint.list(${threadOf(config)})`);
      yield* super.list(config, ...rest);
    }

    /** After a write: what the latest checkpoint now says about each approval, reported where it changed. */
    async [WROTE](turn: string, gate: string, config: Config) {
      const book = trace.book();
      const version = ++book.version;
      const { seen } = book;
      const latest = await trace.external(super.getTuple({ configurable: { thread_id: config?.configurable?.['thread_id'] } }));
      const pending = pendingApprovals(latest);
      for (const approvalId of pending ?? []) {
        seen.add(approvalId);
        trace.approvals.add(approvalId);
      }
      const states = new Map<string, RecordState>();
      for (const approvalId of inOrder(trace.approvals)) {
        const state = approvalState(pending, approvalId, seen);
        states.set(approvalId, state);
        const from = book.lastStates.get(approvalId) ?? 'absent';
        if (from !== state && trace.report) {
          trace.history.emit({ kind: 'record-write', actor: turn, gate, approvalId, version, from, state });
        }
      }
      book.lastStates = states;
    }
  };
}


/** Bytes as text; anything else as JSON. */
const asText = (value: unknown) =>
  value instanceof Uint8Array ? Buffer.from(value).toString('base64') : (JSON.stringify(value) ?? 'undefined');

/**
 * A saved checkpoint or write as text, once per array: MemorySaver stores a new array for every checkpoint and write
 * and never changes one in place, and the check of declarations reads the contents around every release.
 */
const texts = new WeakMap<readonly unknown[], string>();
const savedText = (saved: readonly unknown[]): string => {
  let text = texts.get(saved);
  if (text === undefined) texts.set(saved, (text = saved.map(asText).join(',')));
  return text;
};

/**
 * The checkpoints as the gates declare them, read past the gates, for the check of declarations (`World.contents`):
 * each checkpoint (`record:cp3`) and each task's writes to one (`record:cp3/task2`), from MemorySaver's maps or
 * SqliteSaver's tables. Ids not named yet keep their own (`?<id>`); naming them here would change the names.
 */
export function saverContents(
  // The saver (MemorySaver's fields) and the SQLite database are the framework's.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  source: { saver: any } | { db: { prepare(sql: string): { all(): any[] } } },
  book: SaverBook,
  kind: 'record' | 'app',
): Record<string, string> {
  const cp = (id: string) => book.names.get(id) ?? `?${id}`;
  const task = (id: string) => book.tasks.get(id) ?? `?${id}`;
  const contents: Record<string, string> = {};
  const add = (key: string, text: string) => void (contents[`${kind}:${key}`] = `${contents[`${kind}:${key}`] ?? ''}${text};`);
  if ('db' in source) {
    for (const row of source.db.prepare('SELECT * FROM checkpoints ORDER BY rowid').all()) {
      add(cp(row.checkpoint_id), Object.values(row).map(asText).join(','));
    }
    for (const row of source.db.prepare('SELECT * FROM writes ORDER BY rowid').all()) {
      add(`${cp(row.checkpoint_id)}/${task(row.task_id)}`, Object.values(row).map(asText).join(','));
    }
    return contents;
  }
  const { storage, writes } = source.saver;
  for (const namespaces of Object.values(storage ?? {}) as Record<string, Record<string, unknown[]>>[]) {
    for (const checkpoints of Object.values(namespaces)) {
      for (const [id, saved] of Object.entries(checkpoints)) add(cp(id), savedText(saved));
    }
  }
  for (const [outer, inner] of Object.entries(writes ?? {}) as [string, Record<string, unknown[]>][]) {
    const checkpointId = String((JSON.parse(outer) as unknown[])[2]);
    for (const [innerKey, saved] of Object.entries(inner)) {
      // The text holds the task id too (first), which names the key already.
      add(`${cp(checkpointId)}/${task(String(saved[0]))}`, `${innerKey}:${savedText(saved)}`);
    }
  }
  return contents;
}
