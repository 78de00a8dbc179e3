// Mastra's own storage, as a world keeps it: an InMemoryStore or a LibSQLStore on a file, whose workflow-snapshot
// calls (where both the agent's approvals and a workflow's suspended step are kept) are gates. After each gated call
// the world reads the run's rows past the gates and reports what they say about the approvals in the run: a read as
// record-read, a write that changed an approval's state as record-write (a write that names the status it expects,
// Mastra's resume claim, as a compare-and-set). Nothing of Mastra's code is replaced: each method is wrapped on the
// storage's own workflows domain, and calls the original.
import type { Access, GateFn, Recorder, RecordState } from '@approval-conformance/core/contract';
import { maybeRequest } from './context.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;

// A request's first read of a run is its view, a gate; its later reads of the same run (Mastra reads a run's rows
// several times on one resume) run on with the code after its previous gate, whichever gate that was (the backend's,
// the guard's), so each is declared where it happens (`WorldEnv.declare`). Every write is a gate.
const READS = ['loadWorkflowSnapshot', 'getWorkflowRunById'] as const;
const WRITES = ['persistWorkflowSnapshot', 'updateWorkflowState', 'updateWorkflowResults', 'deleteWorkflowRunById'] as const;

/**
 * How gates and stories name a run. A world's own run ids are its own (`run-1.w7`, named `run-1`): anything Mastra
 * keeps per run id outside a Mastra instance must not reach one world from another (an explored schedule drops its
 * turns where they stand). Runs Mastra starts itself under a random id (1.51's agent runs its tool calls in an inner
 * `execution-workflow` run) are named `inner-1`, `inner-2`, ... in the order the world first meets them, which is
 * the same on every replay of a schedule's prefix.
 */
export class RunNames {
  #inner = new Map<string, string>();

  name(runId: string): string {
    const own = /^(run-\d+)\.w\d+$/.exec(runId);
    if (own) return own[1]!;
    let name = this.#inner.get(runId);
    if (name === undefined) this.#inner.set(runId, (name = `inner-${this.#inner.size + 1}`));
    return name;
  }

  /** The name, without naming a run met for the first time here (`?<id>`): for reads past the story, such as `contents`. */
  peek(runId: string): string {
    const own = /^(run-\d+)\.w\d+$/.exec(runId);
    return own ? own[1]! : (this.#inner.get(runId) ?? `?${runId}`);
  }

  dump = (): [string, string][] => [...this.#inner];
  load = (entries: readonly [string, string][]) => void (this.#inner = new Map(entries));
}

/** Reads a run's snapshot in one workflow, past the gates. */
export type RowReader = (workflowName: string, runId: string) => Promise<Any>;

/** What the rows of one run say: the approvals pending in it (each unspent). */
export type PendingOf = (read: (workflowName: string) => Promise<Any>) => Promise<Set<string>>;

export interface StorageTrace {
  readonly gate: GateFn;
  readonly history: Recorder;
  readonly external: <T>(work: Promise<T>) => Promise<T>;
  readonly pendingOf: PendingOf;
  readonly names: RunNames;
  /**
   * Whether the snapshots are the approvals' record, reported as record-read and record-write. Not with the approval
   * guard: the guard's record is then the approval's, and these calls, still gated, are app state.
   */
  readonly report: boolean;
  /** Each call of the domain a request makes, gated or not, reported for the check of declarations (`WorldEnv.accessed`). */
  readonly accessed: (access: Access, call?: string) => void;
  /** Declares an ungated re-read where it happens (`WorldEnv.declare`). */
  readonly declare: (access: Access) => void;
}

/** The suite's bookkeeping about the record, kept across restarts and snapshots. */
export class RecordBook {
  /** How many writes have landed on each run's rows: the version of that run's record. */
  versions = new Map<string, number>();
  /** The run each approval was seen pending in. */
  runs = new Map<string, string>();
  /** Each approval's state after the last write. */
  lastStates = new Map<string, RecordState>();

  version(runId: string): number {
    return this.versions.get(runId) ?? 0;
  }

  dump() {
    return { versions: [...this.versions], runs: [...this.runs], lastStates: [...this.lastStates] };
  }

  load(dump: ReturnType<RecordBook['dump']>) {
    this.versions = new Map(dump.versions);
    this.runs = new Map(dump.runs);
    this.lastStates = new Map(dump.lastStates);
  }

  /** Each approval of run `runId` the book knows, with its state in the rows read now. */
  async statesOf(runId: string, read: RowReader, pendingOf: PendingOf): Promise<Map<string, RecordState>> {
    const pending = await pendingOf((workflowName) => read(workflowName, runId));
    for (const approvalId of pending) this.runs.set(approvalId, runId);
    const states = new Map<string, RecordState>();
    for (const [approvalId, run] of this.runs) if (run === runId) states.set(approvalId, pending.has(approvalId) ? 'unspent' : 'spent');
    return states;
  }
}

/** The storage's workflows domain (1.x: `getStore('workflows')`; 0.x: `stores.workflows`, listing with `getWorkflowRuns`). */
export async function workflowsDomain(storage: Any): Promise<Any> {
  const domain = (typeof storage.getStore === 'function' ? await storage.getStore('workflows') : undefined) ?? storage.stores?.workflows;
  if (!domain) throw new Error('this Mastra storage has no workflows domain to keep snapshots in');
  return domain;
}

/** The domain's own methods, past the gates. */
export interface RawWorkflows {
  readonly read: RowReader;
  /** Every row, as plain data: the world's snapshot of its storage. */
  dump(): Promise<Any[]>;
  /** Puts back what `dump` gave (into a fresh, empty storage). */
  load(rows: readonly Any[]): Promise<void>;
  /** Writes one run's snapshot past the gates (the holder's tampering), reported as a write by `actor`. */
  persist(actor: string, workflowName: string, runId: string, snapshot: Any): Promise<void>;
}

/**
 * Wraps the domain's snapshot calls with gates, reporting to `book`, and returns its own methods past the gates. A
 * call made outside any request (Mastra's own start-up) is not gated.
 */
export function gateWorkflows(domain: Any, book: RecordBook, trace: StorageTrace): RawWorkflows {
  const original = (name: string) => domain[name].bind(domain) as (...args: Any[]) => Promise<Any>;
  const load = original('loadWorkflowSnapshot');
  const read: RowReader = (workflowName, runId) => trace.external(Promise.resolve(load({ workflowName, runId })));
  for (const name of [...READS, ...WRITES]) {
    if (typeof domain[name] !== 'function') continue;
    const call = original(name);
    const mode = (READS as readonly string[]).includes(name) ? 'read' : 'write';
    domain[name] = async (...args: Any[]) => {
      const request = maybeRequest();
      const { workflowName, runId } = args[0] ?? {};
      if (!request || typeof runId !== 'string') return call(...args);
      const gate = `${name}(${workflowName ?? '*'}/${trace.names.name(runId)})`;
      // Each run's rows are its own: the access names the run, exactly (a read of one run commutes with a write of another).
      const key = `${trace.report ? 'record' : 'app'}:${trace.names.name(runId)}`;
      if (mode === 'read' && request.viewed.has(runId)) {
        // A re-read of a run the request has viewed: one of the domain's loads (Mastra's own, after another gate),
        // reported as the read it is; not compared, as its gate's first read was.
        trace.declare({ key, mode, exact: true });
        const result = await call(...args);
        trace.accessed({ key, mode: 'read', exact: true }, gate);
        return result;
      }
      if (mode === 'read') request.viewed.add(runId);
      const turn = request.turn;
      await trace.gate(turn, gate, { access: [{ key, mode, exact: true }] });
      const result = await observed(gate, key, workflowName, runId, () => trace.external(Promise.resolve(call(...args))));
      // Mastra's resume claim: a status update that names the status it expects, which lands only if it still holds.
      const conditional = name === 'updateWorkflowState' && args[0]?.opts?.expectedStatus !== undefined;
      await report(turn, gate, runId, conditional && !result ? 'read' : mode, conditional);
      return result;
    };
  }
  /**
   * Runs one call of the domain and reports what it did to the run's rows, seen from the rows (the domain's own
   * `loadWorkflowSnapshot` before and after), never from the gate's declaration: every call looks the run up (a
   * read), and one after which the rows differ wrote them. InMemoryStore also changes a run's snapshot in place
   * between calls (`changesInPlace`): what the call itself changed is what this compares.
   */
  async function observed<T>(call: string, key: string, workflowName: string | undefined, runId: string, work: () => Promise<T>): Promise<T> {
    const rows = async () => JSON.stringify(workflowName === undefined ? null : await read(workflowName, runId));
    const before = await rows();
    const result = await work();
    trace.accessed({ key, mode: 'read', exact: true }, call);
    if ((await rows()) !== before) trace.accessed({ key, mode: 'write', exact: true }, call);
    return result;
  }

  /** After an access to run `runId`'s rows: what they now say about its approvals. */
  async function report(actor: string, gate: string, runId: string, mode: 'read' | 'write', conditional = false) {
    if (!trace.report) return;
    const states = await book.statesOf(runId, read, trace.pendingOf);
    if (mode === 'read') {
      for (const [approvalId, state] of states) trace.history.emit({ kind: 'record-read', actor, gate, approvalId, version: book.version(runId), state });
      return;
    }
    const version = book.version(runId) + 1;
    book.versions.set(runId, version);
    for (const [approvalId, state] of states) {
      const from = book.lastStates.get(approvalId) ?? 'absent';
      if (from !== state) trace.history.emit({ kind: 'record-write', actor, gate, approvalId, version, from, state, ...(conditional ? { conditional } : {}) });
      book.lastStates.set(approvalId, state);
    }
  }
  const list = original(typeof domain.listWorkflowRuns === 'function' ? 'listWorkflowRuns' : 'getWorkflowRuns');
  const persist = original('persistWorkflowSnapshot');
  return {
    read,
    async dump() {
      const { runs } = await trace.external(Promise.resolve(list({})));
      return (runs as Any[]).map((r) => ({
        workflowName: r.workflowName,
        runId: r.runId,
        snapshot: typeof r.snapshot === 'string' ? JSON.parse(r.snapshot) : r.snapshot,
      }));
    },
    async load(rows) {
      for (const row of rows) await trace.external(Promise.resolve(persist(structuredClone(row))));
    },
    async persist(actor, workflowName, runId, snapshot) {
      await trace.external(Promise.resolve(persist({ workflowName, runId, snapshot })));
      await report(actor, `persistWorkflowSnapshot(${workflowName}/${trace.names.name(runId)})`, runId, 'write');
    },
  };
}
