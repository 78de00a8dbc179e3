// The framework's own fix: the human-in-the-loop guide's server-owned approval state (openai/openai-agents-js#1951,
// examples/docs/human-in-the-loop/server.ts), as the example writes it. The server keeps each paused run's snapshot
// (`state.toString()`) under a request id, with an id per pending decision, and shows the client only those ids and
// detached copies of the calls. A decision names the request; the server takes the stored request (owner check,
// a complete batch of boolean decisions, and the delete, with no await between them), restores the snapshot, applies
// the decisions by position to the stored interruptions and runs. A request taken once is gone: a second decision
// for it is refused ("Approval request is unavailable."), whatever became of the first.
//
// The example keeps the requests in a Map in one process; the guide says production needs atomic, owner-checked
// consumption in shared storage. On the sqlite store the requests are one row of a SQLite file, and the take reads and
// writes it in one synchronous step, which is as atomic as a `DELETE ... RETURNING`; the server holds nothing else
// between requests, so processes sharing that file behave as one.
//
// The requests are the approval's record: a call is unspent while a stored request holds it, and spent once a
// decision took its request (the server will not act on it again).
import { join } from 'node:path';
import Database from 'better-sqlite3';
import {
  type Action,
  type Answer,
  type RecordState,
  type World,
  type WorldEnv,
} from '@approval-conformance/core/contract';
import {
  GatedAppRecord,
  memoryTextBacking,
  sqliteTextBacking,
  type AppRecordSnapshot,
  type AppRecordTrace,
} from '@approval-conformance/core/kit';
import { allPausedOn, isRefusal, pausedOn, show, shownOf, USER_MESSAGE, type App } from './app.js';
import { inRequest, newRequest } from './context.js';
import type { Features } from './features.js';
import { recordStates } from './record.js';
import { editAlone, tamperings } from './tampering.js';
import { proposeInOne, type Said } from './world.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;

/** What the server stores for a paused run: whose it is, its snapshot, and the id of each pending decision. */
interface StoredRun {
  readonly ownerId: string;
  readonly snapshot: string;
  readonly decisionIds: readonly string[];
}

type Requests = Readonly<Record<string, StoredRun>>;

/** What the client is given for each card: the request and the decision it answers (the client keeps them). */
export interface Prompt {
  readonly requestId: string;
  readonly decisionId: string;
  /** The other decisions of the same request: the batch must be complete. */
  readonly batch: readonly string[];
}

/** The one user both tabs are signed in as: the server's owner check passes for either. */
const USER = 'user-1';

/** The server's bookkeeping that outlives a restart and goes into a snapshot: ids handed out, calls consumed. */
export interface ServerBook {
  requests: number;
  consumed: Set<string>;
}

export const newServerBook = (): ServerBook => ({ requests: 0, consumed: new Set() });

export type RequestStore = GatedAppRecord<Requests>;

/** The server's requests: in memory (gone with the process) or in a row of a SQLite file. */
export function openRequestStore(kind: string, scratchDir: () => string, trace: AppRecordTrace, book: () => ServerBook): RequestStore {
  const open = () =>
    kind === 'sqlite'
      ? sqliteTextBacking(new Database(join(scratchDir(), 'requests.sqlite')), { table: 'approval_requests', column: 'requests', id: 'server' })
      : memoryTextBacking();
  const states = (requests: Requests | undefined) => {
    const found = new Map<string, RecordState>();
    for (const stored of Object.values(requests ?? {})) for (const [callId, state] of recordStates(stored.snapshot)) found.set(callId, state);
    for (const callId of book().consumed) found.set(callId, 'spent');
    return found;
  };
  const spec = { name: 'requests', id: 'server', encode: (r: Requests) => JSON.stringify(r), decode: (t: string) => JSON.parse(t) as Requests, states };
  return new GatedAppRecord(open, spec, trace);
}

export interface Server {
  readonly app: App;
  readonly requests: () => RequestStore;
  readonly book: () => ServerBook;
  /** The client's copy of each card's ids, by the approval (the call id) it shows. */
  readonly prompts: Map<string, Prompt>;
}

/** `#save`: a run that paused is stored under a new request, and its cards are shown; one that finished, nothing. */
async function save(server: Server, turn: string, result: Any): Promise<void> {
  const interruptions: Any[] = result.state.getInterruptions?.() ?? [];
  const calls = interruptions.filter((i) => i?.rawItem?.type === 'function_call');
  if (calls.length > 0) {
    const book = server.book();
    const requestId = `request-${++book.requests}`;
    const decisionIds = interruptions.map((_, index) => `${requestId}/decision-${index + 1}`);
    const stored: StoredRun = { ownerId: USER, snapshot: result.state.toString(), decisionIds };
    await server.requests().update(turn, 'save', (requests) => ({ value: { ...requests, [requestId]: stored }, result: undefined }), { blind: true });
    interruptions.forEach((item, index) => {
      if (item?.rawItem?.type === 'function_call') server.prompts.set(item.rawItem.callId, { requestId, decisionId: decisionIds[index]!, batch: decisionIds });
    });
  }
  for (const item of result.newItems ?? []) await show(server.app, turn, shownOf(server.app, item));
}

/** One run to its end or its next pause, stored and shown; the error it threw, if it threw. */
async function runAndSave(server: Server, turn: string, input: unknown): Promise<{ result?: Any; error?: unknown }> {
  try {
    const result = await server.app.lib.agents.run(server.app.agent, input);
    await save(server, turn, result);
    return { result };
  } catch (error) {
    return { error };
  }
}

/** `start`: the user's request runs to its interruption; returns what it paused on (`pick`: the first, or all). */
export function propose<T>(server: Server, turn: string, pick: (result: Any) => T): Promise<T> {
  return inRequest(newRequest(turn), async () => {
    const { result, error } = await runAndSave(server, turn, USER_MESSAGE);
    if (error !== undefined) throw error;
    return pick(result);
  });
}

/**
 * `decide`: the client's decisions for a request, one boolean for every decision id it was given (the answered ones as
 * the human clicked, any other of the same request denied). The server takes the request: owner, batch and delete
 * in one step. A request that is gone is refused, and the user is told nothing happened on this click.
 */
export function resume(server: Server, turn: string, answers: readonly Answer[]): Promise<void> {
  return inRequest(newRequest(turn), async () => {
    const answer = answers[0];
    const prompt = answer && server.prompts.get(answer.approvalId);
    if (!answer || !prompt) return;
    const approved = new Set(answers.filter((a) => a.approved).map((a) => server.prompts.get(a.approvalId)?.decisionId));
    const decisions: Record<string, boolean> = Object.fromEntries(prompt.batch.map((id) => [id, approved.has(id)]));
    const taken = await server.requests().update(turn, 'take', (requests) => {
      const stored = requests?.[prompt.requestId];
      if (!stored || stored.ownerId !== USER) return { result: undefined };
      const complete = Object.keys(decisions).length === stored.decisionIds.length && stored.decisionIds.every((id) => Object.hasOwn(decisions, id));
      if (!complete) return { result: undefined };
      const { [prompt.requestId]: _taken, ...rest } = requests!;
      for (const [callId, state] of recordStates(stored.snapshot)) if (state === 'unspent') server.book().consumed.add(callId);
      return { value: rest, result: stored };
    });
    // "Approval request is unavailable.": answered with an error; nothing ran under this click.
    if (!taken) return;
    let state: Any;
    try {
      state = await server.app.lib.agents.RunState.fromString(server.app.agent, taken.snapshot);
    } catch (error) {
      if (isRefusal(server.app, error)) return;
      throw error;
    }
    const interruptions: Any[] = state.getInterruptions?.() ?? [];
    interruptions.forEach((item, index) => (decisions[taken.decisionIds[index]!] ? state.approve(item) : state.reject(item)));
    const { error } = await runAndSave(server, turn, state);
    if (error === undefined || isRefusal(server.app, error)) return;
    await server.app.connections.disclose(turn, answer.approvalId, 'not-happened');
  });
}

/** The holder's view of the stored snapshot that holds `approvalId`'s call, for tampering: read and write it back. */
export function snapshotHolder(server: Server) {
  const requestOf = (requests: Requests | undefined) =>
    Object.entries(requests ?? {}).find(([, stored]) => [...recordStates(stored.snapshot).keys()].some((id) => server.prompts.has(id)));
  return {
    peek: () => requestOf(server.requests().peek())?.[1].snapshot,
    save: (turn: string, snapshot: string) =>
      server.requests().update(turn, 'tamper', (requests) => {
        const found = requestOf(requests);
        return found ? { value: { ...requests, [found[0]]: { ...found[1], snapshot } }, result: undefined } : { result: undefined };
      }, { blind: true }),
  };
}

/**
 * The guide's server-owned approval state: the server's stored requests are the record, and there is no click
 * reaching the server before the resume: the decision travels with it.
 */
export function serverOwnedWorld(theApp: App, features: Features, env: WorldEnv, said: Said): World {
  let book: ServerBook = newServerBook();
  let prompts = new Map<string, Prompt>();
  const requests = openRequestStore(env.store, () => env.scratchDir, { gate: env.gate, history: env.history, report: true, accessed: env.accessed }, () => book);
  const server: Server = { app: theApp, requests: () => requests, book: () => book, get prompts() { return prompts; } };
  const holder = { lib: theApp.lib, agent: () => theApp.agent, store: () => snapshotHolder(server) };
  return {
    async propose(turn, req) {
      said.request = req;
      return propose(server, turn, pausedOn);
    },
    proposeMany: (turn, requests) => proposeInOne(said, requests, () => propose(server, turn, allPausedOn)),
    resume: (turn, answer) => resume(server, turn, [answer]),
    resumeMany: (turn, answers) => resume(server, turn, answers),
    inspect: async (approvalId) => requests.inspect(approvalId),
    contents: async () => requests.contents(),
    tamper: (approvalId, action) => editAlone(holder, approvalId, action),
    tamperings: tamperings(holder, features.approvalBinding),
    async snapshot() {
      return { requests: requests.snapshot(), book: structuredClone(book), prompts: new Map(prompts), said: { ...said } };
    },
    async restore(snapshot) {
      const s = snapshot as { requests: AppRecordSnapshot; book: ServerBook; prompts: Map<string, Prompt>; said: Said };
      requests.restore(s.requests);
      book = structuredClone(s.book);
      prompts = new Map(s.prompts);
      Object.assign(said, s.said);
    },
    async restart() {
      // A new server process: the example's Map starts empty; the SQLite file keeps what was stored. The client keeps
      // the ids it was given.
      requests.restart();
    },
    async close() {
      requests.close();
    },
  };
}
