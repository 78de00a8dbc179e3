// A world: one Durable Object of the shared workerd (`idFromName(<the scratch folder's name>)`) running the
// documented AIChatAgent, driven from here. Each turn is a tab (a WebSocket of its own, `?_pk=<turn>`, which the
// prelude takes as the socket's id, so every origin names its turn). The model and the backend are the MODEL and
// BACKEND bindings, answered here behind core's gates; the object's timers are virtual (the prelude's CLOCK): a
// debounce fires at a gate of its owner, a poll on the run's virtual clock. Quiescence is spike 2's `settle()`: acks,
// a probe, frames read, every pending binding call parked at a gate here, the timers agreeing.
import { AsyncLocalStorage } from 'node:async_hooks';
import { basename } from 'node:path';
import WebSocket from 'ws';
import {
  type Access,
  type Action,
  type Answer,
  type PendingApproval,
  type ProposalRequest,
  type RecordState,
  type World,
  type WorldEnv,
} from '@approval-conformance/core/contract';
import {
  actionOfCall,
  followUpId,
  proposeAction,
  proposeRequested,
  toolInput,
  WorldGuard,
  type GuardRecords,
  type Proposer,
} from '@approval-conformance/core/kit';
import { answer, outside, runtime, type ClockMessage, type Runtime } from './runtime.js';

/** The agent's route (`routeAgentRequest`: the class name in kebab case) and namespace. */
const AGENT_PATH = 'chat-agent';
const NAMESPACE = 'ChatAgent';

/** The agent's tools that need approval (worker/agent.ts): guarded, their calls go through the guard. */
const NEEDS_APPROVAL: ReadonlySet<string> = new Set(['transfer', 'notify']);

/** The messages (the approvals' record), and the object's memory (its pending continuation, timers, stream). */
export const RECORD = 'record:chat';
export const OBJECT = 'object:chat';
/**
 * What the object does on a tab's approval frame or the model's text reply, until the turn's next gate: writes its
 * messages, changes its memory, arms a timer, reads the record to build a binding call.
 */
export const OBJECT_STEP: Access[] = [
  { key: RECORD, mode: 'write' },
  { key: OBJECT, mode: 'write' },
];

/** A disclosure: what the user's tab shows them of an approval's outcome. */
const TELL: Access = { key: 'tell', mode: 'write' };

/** Timers of an hour or more (the stream's 24 h timeout) are tracked but never fired. */
const LONG = 3_600_000;
/** Functions that sleep in a loop until something else happened: their timers stay on the virtual clock. */
export const POLL_SITES = ['_findAndUpdateToolPart', 'waitUntilStable', 'waitForIdle'];
/**
 * The prelude's virtual alarms (an alarm for "now": agents' job queue, the startup's recovery): on the virtual clock
 * too, so the alarm runs only when every turn is blocked, as a poll wakes.
 */
export const CLOCK_SITES = [...POLL_SITES, 'armVirtualAlarm'];
/** Probes before the object is declared never quiet. */
const MAX_PROBES = 2000;

const STATE_OF: Readonly<Record<string, RecordState>> = {
  'approval-requested': 'unspent',
  'approval-responded': 'unspent',
  'output-available': 'spent',
  'output-error': 'spent',
  'output-denied': 'spent',
};

/** What the user is told when an approved call's outcome reaches a tab (as the AI SDK adapter's UI wirings say). */
const OUTCOME: Readonly<Record<string, 'happened' | 'not-happened'>> = {
  'tool-output-available': 'happened',
  'tool-output-error': 'not-happened',
  'tool-output-denied': 'not-happened',
};

type Origin = { kind: string; sock?: string; frame?: number; path?: string } | null | undefined;
type InContext = <T>(fn: () => T) => T;

interface Quiet {
  idle: boolean;
  zeroTimers: number;
  clockPending: number;
  storagePending: number;
  pendingBindingCalls: { id: number; binding: string; origin: Origin }[];
  timers: { id: number; delay: number; origin: Origin }[];
  sent: Record<string, number>;
  recordWrites: Origin[];
}

interface Timer {
  readonly id: number;
  readonly delay: number;
  readonly owner: string | undefined;
  readonly kind: 'debounce' | 'clock' | 'long';
  readonly site: string;
  /** The virtual clock's handle, for a timer on it. */
  handle?: ReturnType<typeof setTimeout>;
}

/** A debounce's gate: pending until released; its timer may have been cleared meanwhile (then it does nothing). */
interface TimerGate {
  readonly timer: Timer;
  released: boolean;
}

interface Card {
  readonly turn: string;
  readonly approvalId: string;
  readonly action: Action;
  delivered: boolean;
}

type Chunk = Record<string, unknown> & { type?: string };

const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

/** A tab: one WebSocket to the agent, with the prelude's acks and frame counts. */
class Tab {
  readonly ws: WebSocket;
  readonly open: Promise<void>;
  sent = 0;
  acked = 0;
  received = 0;
  /** Automatic replies (the stream's resume ack), sent only at quiet points. */
  deferred: object[] = [];
  /** Chunks of this tab's own requests' responses, not yet looked at. */
  chunks: Chunk[] = [];
  /** Card chunks (`tool-input-available`, `tool-approval-request`) of streams that are no request of this tab's. */
  others: Chunk[] = [];
  /** Tool outcomes (`tool-output-*`) of any stream the tab was sent, with the stream's id, not yet looked at. */
  outcomes: { stream: string; chunk: Chunk }[] = [];
  /** The chat's messages as the tab last saw them (get-messages at open, then the broadcasts). */
  messages: unknown[] = [];
  requests = 0;
  readonly #mine = new Set<string>();
  readonly #waiters = new Set<{ pred: () => boolean; resolve: () => void }>();
  closed = false;

  constructor(
    readonly turn: string,
    url: URL,
  ) {
    this.ws = new WebSocket(url);
    this.open = new Promise((resolve, reject) => {
      this.ws.once('open', () => resolve());
      this.ws.once('error', reject);
    });
    this.ws.on('error', () => {});
    this.ws.on('close', () => {
      this.closed = true;
    });
    this.ws.on('message', (data) => {
      this.received++;
      let frame: Chunk;
      try {
        frame = JSON.parse(data.toString()) as Chunk;
      } catch {
        frame = { raw: data.toString() };
      }
      // Every frame a tab reads, with APPROVAL_CONFORMANCE_CF_VERBOSE (as the framework's console).
      if (process.env['APPROVAL_CONFORMANCE_CF_VERBOSE'] && frame.type !== '__cs_ack') console.error(`[${turn}<]`, JSON.stringify(frame).slice(0, 300));
      if (frame.type === '__cs_ack') this.acked = Number(frame['n']);
      else if (frame.type === 'cf_agent_stream_resuming') this.deferred.push({ type: 'cf_agent_stream_resume_ack', id: frame['id'] });
      else if (frame.type === 'cf_agent_chat_messages' && Array.isArray(frame['messages'])) this.messages = frame['messages'] as unknown[];
      else if (frame.type === 'cf_agent_use_chat_response' && typeof frame['body'] === 'string' && frame['body']) {
        let chunk: Chunk | undefined;
        try {
          chunk = JSON.parse(frame['body']) as Chunk;
        } catch {
          // not a chunk
        }
        if (chunk && this.#mine.has(String(frame['id']))) this.chunks.push(chunk);
        // A continuation's stream (no tab's request) can carry a card too: the flow's second approval.
        else if (chunk && (chunk.type === 'tool-input-available' || chunk.type === 'tool-approval-request')) this.others.push(chunk);
        if (chunk?.type && OUTCOME[chunk.type]) this.outcomes.push({ stream: String(frame['id']), chunk });
      }
      for (const w of this.#waiters) {
        if (w.pred()) {
          this.#waiters.delete(w);
          w.resolve();
        }
      }
    });
  }

  until(pred: () => boolean, what: string, ms = 10_000): Promise<void> {
    if (pred() || this.closed) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const w = { pred, resolve };
      this.#waiters.add(w);
      setTimeout(() => {
        if (this.#waiters.delete(w)) reject(new Error(`${this.turn}'s tab: no ${what} (received ${this.received}, acked ${this.acked}/${this.sent})`));
      }, ms).unref();
    });
  }

  send(frame: object): void {
    this.sent++;
    this.ws.send(JSON.stringify(frame));
  }

  request(text: string): void {
    const id = `req-${this.turn}-${++this.requests}`;
    this.#mine.add(id);
    const message = { id: `u-${this.turn}-${this.requests}`, role: 'user', parts: [{ type: 'text', text }] };
    const body = JSON.stringify({ messages: [...this.messages, message], trigger: 'submit-message' });
    this.send({ type: 'cf_agent_use_chat_request', id, init: { method: 'POST', body } });
  }

  flushDeferred(): boolean {
    const replies = this.deferred.splice(0);
    for (const r of replies) this.send(r);
    return replies.length > 0;
  }

  terminate(): void {
    this.closed = true;
    this.ws.terminate();
  }
}

export class CloudflareWorld implements World {
  readonly #env: WorldEnv;
  readonly #rt: Runtime;
  readonly #name: string;
  /** The context each turn's code runs in, and the scenario's (for timers no turn owns). */
  readonly #contexts = new Map<string, InContext>();
  readonly #scenario: InContext;
  readonly #tabs = new Map<string, Tab>();
  #request: ProposalRequest = { alternatives: [] };
  /**
   * Guarded (`guarded-ai-chat-approval`): the approval guard, its records in the object's own SQLite (they survive
   * `ctx.abort()` as the chat does), the app's calls in Node (see PROGRESS).
   */
  readonly #guard: WorldGuard | undefined;
  /** The world each approval was proposed in, for the guard's record of its card. */
  #proposedIn = new Map<string, string>();
  /** Guarded: what the guard said of each approval's last call, which the tab is told instead of the tool part. */
  #guardSays = new Map<string, 'happened' | 'unknown' | undefined>();
  /** The alternatives of the further calls the model makes in the first call's step (`proposeMany`). */
  #parallel: (readonly Action[])[] = [];
  #proposals = 0;
  /** Binding calls answered here, by the prelude's id: parked while their gate is pending. */
  #calls = new Map<number, { owner: string; parked: boolean }>();
  #timers = new Map<number, Timer>();
  #timerGates: TimerGate[] = [];
  /** Debounces set since the last quiet point: their gates open there, in set order. */
  #toOpen: Timer[] = [];
  #clockBuffer = new Map<number, ClockMessage>();
  #nextSeq = 1;
  /** Writes of the messages reported by the prelude and not yet read; owners of binding calls not yet reported as reads. */
  #writes: Origin[] = [];
  #reads: string[] = [];
  #cards: Card[] = [];
  /** The card each turn's request paused on. */
  #proposed = new Map<string, PendingApproval>();
  #inputs = new Map<string, Action>();
  /** The turn whose BACKEND call ran each approval's tool last, in this instance of the object. */
  #dispatchedBy = new Map<string, string>();
  /** Outcomes told, by stream and approval. */
  #told = new Set<string>();
  /** Guarded: the approvals each turn has told its user of (`<turn>/<approvalId>`). */
  #toldBy = new Set<string>();
  #states = new Map<string, RecordState>();
  #version = 0;
  /** The messages as last read (JSON), for `contents()` while the object sleeps after a restart. */
  #messages = '[]';
  #asleep = false;
  #waiters: { turn: string; resolve: () => void; reject: (e: Error) => void }[] = [];
  #dirty = false;
  #loop: Promise<void> | undefined;
  #last: Quiet | undefined;
  #failure: Error | undefined;
  #closed = false;

  private constructor(env: WorldEnv, rt: Runtime) {
    this.#env = env;
    this.#rt = rt;
    // The object's name tells the agent its wiring's mode (worker/agent.ts): `signed-…` passes the approval secret.
    this.#name = `${env.wiring === 'signed-ai-chat-approval' ? 'signed' : 'w'}-${basename(env.scratchDir)}`;
    this.#scenario = AsyncLocalStorage.snapshot();
    if (env.wiring.startsWith('guarded-')) {
      const records = this.#objectGuardRecords();
      const guard = new WorldGuard(env, () => records);
      this.#guard = guard;
      this.approve = (turn, approvalId) => guard.app.approve(turn, approvalId);
    }
    rt.register(this.#name, { onBinding: (b, r) => this.#onBinding(b, r), onClock: (m) => this.#onClock(m) });
  }

  static async create(env: WorldEnv): Promise<CloudflareWorld> {
    return new CloudflareWorld(env, await env.external(runtime()));
  }

  // ---- the World interface

  async propose(turn: string, request: ProposalRequest): Promise<PendingApproval | undefined> {
    this.#enter(turn);
    this.#request = request;
    // A chat request runs the model: undeclared, dependent with everything.
    await this.#env.gate(turn, 'client.send(chat-request)');
    const tab = await this.#tab(turn);
    tab.request('Please do what we discussed.');
    this.#kick();
    await this.#done(turn);
    return this.#proposed.get(turn);
  }

  /**
   * The model calls both tools in one step (the AI SDK runs parallel tool calls): each needs approval, so the stream
   * carries two cards and the object holds two approvals at once.
   */
  async proposeMany(turn: string, requests: readonly ProposalRequest[]): Promise<readonly PendingApproval[] | undefined> {
    this.#parallel = requests.slice(1).map((r) => r.alternatives);
    try {
      const first = await this.propose(turn, requests[0]!);
      if (!first) return undefined;
      const mine = this.#cards.filter((c) => c.turn === turn).map((c) => ({ approvalId: c.approvalId, action: c.action }));
      return mine.length === requests.length ? mine : undefined;
    } finally {
      this.#parallel = [];
    }
  }

  async resume(turn: string, reply: Answer): Promise<void> {
    this.#enter(turn);
    await this.#env.gate(turn, `client.send(tool-approval:${reply.approvalId})`, { access: OBJECT_STEP });
    const tab = await this.#tab(turn);
    tab.send({ type: 'cf_agent_tool_approval', toolCallId: reply.approvalId, approved: reply.approved, autoContinue: true });
    this.#kick();
    await this.#done(turn);
    if (this.#guard) await this.#recover(turn, reply.approvalId);
  }

  /**
   * Guarded, once the turn's answer is handled and the object is quiet: an answer that told the user nothing of its
   * approval (the framework refused it, e.g. a retry after a restart finds the tool part no longer
   * `approval-requested` on ai-chat before 0.9.4, so nothing ran for it in this request) asks the guard what became of
   * the approval (`recover`, its store calls gated as the guard's others are), as ADK's and Mastra's guarded apps do.
   * The user is told it happened if the guard's record says it ran, that it may have if the record says unknown (the
   * process died between the effect and its outcome and the tool takes no key to deliver it again); otherwise
   * nothing (not spent, refused, or another request of this process is running it and will tell).
   */
  async #recover(turn: string, approvalId: string): Promise<void> {
    if (this.#toldBy.has(`${turn}/${approvalId}`)) return;
    const recovered = await this.#guard!.app.recover(turn, approvalId);
    const says = recovered === 'ran' ? 'happened' : recovered === 'unknown' ? 'unknown' : undefined;
    if (says === undefined) return;
    this.#toldBy.add(`${turn}/${approvalId}`);
    this.#env.declare(TELL);
    this.#env.history.emit({ kind: 'disclosure', actor: turn, approvalId, says });
  }

  /**
   * The client holds the transcript (useAgentChat keeps the messages and sends them back): the holder edits the call's
   * input in the proposing tab's copy and sends it as `cf_agent_chat_messages`, which the framework persists as a
   * client's edit of the chat (`persistMessages`). No gate: the holder acts before any turn of the run is spawned.
   */
  async tamper(approvalId: string, action: Action): Promise<void> {
    const tab = [...this.#tabs.values()].find((t) => this.#proposed.get(t.turn)?.approvalId === approvalId);
    if (!tab) throw new Error(`no tab holds the card for ${approvalId}`);
    // The client's copy after the stream (useAgentChat builds the assistant message from the chunks): the chat as
    // stored, since the broadcasts skip the tab whose request wrote it.
    const held = JSON.parse(await this.#env.external(outside(() => this.#readMessages()))) as { parts?: Record<string, unknown>[] }[];
    if (!held.some((m) => (m.parts ?? []).some((p) => p['toolCallId'] === approvalId))) throw new Error(`the chat holds no call ${approvalId}`);
    const edited = held.map((m) => ({
      ...m,
      parts: (m.parts ?? []).map((p) => (p['toolCallId'] === approvalId ? { ...p, type: `tool-${action.operation}`, input: toolInput(action) } : p)),
    }));
    tab.send({ type: 'cf_agent_chat_messages', messages: edited });
    await this.#env.external(outside(() => this.#settle()));
    this.#atQuiet();
  }

  /** Guarded: the human's click reaches the server, which records the approval of the card the client holds. */
  readonly approve?: (turn: string, approvalId: string) => Promise<void>;

  async inspect(approvalId: string) {
    if (this.#guard) return this.#guard.inspect(approvalId);
    return { state: this.#states.get(approvalId) ?? 'absent', version: this.#version };
  }

  async contents(): Promise<Readonly<Record<string, string>>> {
    if (!this.#asleep && !this.#closed) this.#messages = await outside(() => this.#readMessages());
    return { [RECORD]: this.#messages, ...(this.#guard ? await this.#guard.contents() : {}) };
  }

  async restart(): Promise<void> {
    await this.#env.external(
      outside(async () => {
        this.#messages = await this.#readMessages();
        for (const tab of this.#tabs.values()) tab.terminate();
        this.#tabs.clear();
        await this.#control('abort');
        // A new instance answers once the old one is gone (a control request runs no framework code).
        for (let i = 0; ; i++) {
          const info = (await this.#control('info').catch(() => undefined)) as { notes?: string[] } | undefined;
          if (info && !(info.notes ?? []).includes('abort')) break;
          if (i > 500) throw new Error('the aborted object never came back');
          await new Promise((r) => setTimeout(r, 5));
        }
      }),
    );
    // Forget everything known of the old instance.
    for (const t of this.#timers.values()) if (t.handle !== undefined) clearTimeout(t.handle);
    this.#timers.clear();
    this.#timerGates = [];
    this.#toOpen = [];
    this.#calls.clear();
    this.#clockBuffer.clear();
    this.#nextSeq = 1;
    this.#writes = [];
    this.#reads = [];
    this.#cards = this.#cards.filter((c) => c.delivered);
    this.#dispatchedBy.clear();
    for (const w of this.#waiters.splice(0)) w.reject(new Error('the process died'));
    this.#guardSays.clear();
    this.#guard?.restart();
    this.#asleep = true;
  }

  async close(): Promise<void> {
    this.#closed = true;
    for (const tab of this.#tabs.values()) tab.terminate();
    this.#tabs.clear();
    for (const t of this.#timers.values()) if (t.handle !== undefined) clearTimeout(t.handle);
    this.#rt.unregister(this.#name);
    this.#guard?.close();
  }

  /**
   * The guard's records in the object's own SQLite (`ctx.storage.sql`, the prelude's `guard` control op): they survive
   * `ctx.abort()` as the chat does, and the restarted app reads them from the new instance. The guard's logic runs
   * here, in Node; only its store is the object's. Every call is made outside the turn's async context (undici's
   * timers must not land on the run's virtual clock); core's GatedGuardStore gates them.
   */
  #objectGuardRecords(): GuardRecords {
    type Rec = Parameters<GuardRecords['store']['insert']>[0];
    const call = <T>(params: Record<string, string | number>) => outside(() => this.#control('guard', params)) as Promise<T>;
    const store: GuardRecords['store'] = {
      insert: async (record) => (await call<{ ok: boolean }>({ op: 'insert', record: JSON.stringify(record) })).ok,
      get: async (id) => (await call<{ record: Rec | null }>({ op: 'get', id })).record ?? undefined,
      replace: async (next, expected) => (await call<{ ok: boolean }>({ op: 'replace', record: JSON.stringify(next), expected })).ok,
    };
    return {
      store,
      dump: async () => (await call<{ records: Rec[] }>({ op: 'dump' })).records,
      load: async () => {
        throw new Error('no snapshot/restore in this adapter');
      },
      close: () => {},
      inspect: async (approvalId) => {
        const record = await store.get(approvalId);
        // As core's guardRecordState: approved and unspent are not spent yet; anything else is.
        const state: RecordState = record === undefined ? 'absent' : record.state === 'unspent' || record.state === 'approved' ? 'unspent' : 'spent';
        return { state, version: record?.version ?? 0 };
      },
    };
  }

  // ---- turns and tabs

  #enter(turn: string) {
    if (!this.#contexts.has(turn)) this.#contexts.set(turn, AsyncLocalStorage.snapshot());
  }

  #as<T>(turn: string | undefined, fn: () => T): T {
    return (turn === undefined ? this.#scenario : (this.#contexts.get(turn) ?? this.#scenario))(fn);
  }

  #turnOf(origin: Origin): string | undefined {
    const sock = origin?.sock;
    return sock !== undefined && this.#contexts.has(sock) ? sock : undefined;
  }

  /** The turn's tab, opened (in the release of its first gate) and read up to a quiet point. */
  async #tab(turn: string): Promise<Tab> {
    const had = this.#tabs.get(turn);
    if (had) return had;
    return this.#env.external(
      outside(async () => {
        const url = new URL(`/agents/${AGENT_PATH}/${this.#name}?_pk=${turn}`, this.#rt.url);
        url.protocol = 'ws:';
        // The tab loads the chat first, as useAgentChat does (get-messages), then follows the broadcasts.
        const messages = JSON.parse(await this.#readMessages(turn)) as unknown[];
        this.#asleep = false;
        const tab = new Tab(turn, url);
        tab.messages = messages;
        this.#tabs.set(turn, tab);
        await tab.open;
        await this.#settle();
        return tab;
      }),
    );
  }

  /** Resolves at a quiet point where the turn has nothing left in the object. */
  #done(turn: string): Promise<void> {
    return new Promise((resolve, reject) => {
      this.#waiters.push({ turn, resolve, reject });
      this.#kick();
    });
  }

  #turnIsDone(turn: string, q: Quiet): boolean {
    if (q.pendingBindingCalls.some((c) => this.#turnOf(c.origin) === turn)) return false;
    if ([...this.#timers.values()].some((t) => t.owner === turn && t.kind !== 'long')) return false;
    if (this.#timerGates.some((g) => g.timer.owner === turn && !g.released)) return false;
    if (this.#toOpen.some((t) => t.owner === turn)) return false;
    if (this.#cards.some((c) => c.turn === turn && !c.delivered)) return false;
    return true;
  }

  // ---- quiescence

  /** Something may have moved in the object: wait (as external I/O) for its next quiet point. */
  #kick(): void {
    this.#dirty = true;
    if (this.#loop || this.#closed) return;
    const loop = outside(async () => {
      try {
        while (this.#dirty && !this.#closed) {
          this.#dirty = false;
          await this.#settle();
          this.#atQuiet();
        }
      } catch (error) {
        this.#fail(error instanceof Error ? error : new Error(String(error)));
      } finally {
        this.#loop = undefined;
      }
    });
    this.#loop = loop;
    void this.#env.external(loop);
  }

  #fail(error: Error) {
    this.#failure ??= error;
    for (const w of this.#waiters.splice(0)) w.reject(error);
  }

  async #control(op: string, params: Record<string, string | number> = {}): Promise<unknown> {
    const url = new URL(`/__cs/${NAMESPACE}/${this.#name}/${op}`, this.#rt.url);
    for (const [k, v] of Object.entries(params)) url.searchParams.set(k, String(v));
    const res = await fetch(url);
    if (!res.ok) throw new Error(`${op}: ${res.status} ${await res.text()}`);
    return res.json();
  }

  /** The framework's own get-messages route; a tab's read names its turn (`_pk`), so what it wakes is the turn's. */
  async #readMessages(turn?: string): Promise<string> {
    const url = new URL(`/agents/${AGENT_PATH}/${this.#name}/get-messages`, this.#rt.url);
    if (turn !== undefined) url.searchParams.set('_pk', turn);
    const res = await fetch(url);
    const text = await res.text();
    if (!res.ok) throw new Error(`get-messages: ${res.status} ${text}`);
    return text;
  }

  /** Probes until the object is quiet, the tabs have read what it sent, and the record's writes are read. */
  async #settle(): Promise<void> {
    for (let probe = 0; probe < MAX_PROBES; probe++) {
      const tabs = [...this.#tabs.values()].filter((t) => !t.closed);
      await Promise.all(tabs.map((t) => t.until(() => t.acked >= t.sent, 'acks')));
      const q = (await this.#control('quiet')) as Quiet;
      this.#last = q;
      this.#writes.push(...(q.recordWrites ?? []));
      await Promise.all(tabs.map((t) => t.until(() => t.received >= (q.sent[t.turn] ?? 0), `frames ${q.sent[t.turn]}`)));
      const unparked = q.pendingBindingCalls.some((c) => !this.#calls.get(c.id)?.parked);
      const agrees = q.timers.length === this.#timers.size && q.timers.every((t) => this.#timers.has(t.id)) && this.#clockBuffer.size === 0;
      const acked = tabs.every((t) => t.acked >= t.sent);
      if (q.idle && !unparked && agrees && acked) {
        let again = false;
        for (const t of tabs) again = t.flushDeferred() || again;
        if (again) continue;
        if (this.#writes.length > 0) {
          this.#readWrites(await this.#readMessages());
          continue;
        }
        return;
      }
      await tick();
    }
    const timers = [...this.#timers.values()].map((t) => `${t.id}:${t.delay}ms/${t.owner ?? '-'}/${t.kind}`).join(' ');
    throw new Error(`${this.#name}: not quiet after ${MAX_PROBES} probes; last answer ${JSON.stringify(this.#last)}; timers known here: ${timers}`);
  }

  /** A batch of writes to the messages: each approval whose state changed is a record-write of the last writer. */
  #readWrites(text: string) {
    const writes = this.#writes.splice(0);
    this.#messages = text;
    this.#version++;
    const owners = [...new Set(writes.map((o) => this.#turnOf(o)).filter((t): t is string => t !== undefined))];
    const last = [...writes].reverse().map((o) => this.#turnOf(o)).find((t) => t !== undefined);
    const now = recordStates(JSON.parse(text) as unknown[]);
    // What the object's storage saw: its messages written, and so its memory (it keeps the messages it persists).
    for (const turn of owners) {
      this.#as(turn, () => {
        this.#env.accessed({ key: RECORD, mode: 'write' }, 'messages.write');
        this.#env.accessed({ key: OBJECT, mode: 'write' }, 'messages.write');
      });
    }
    for (const [approvalId, state] of now) {
      if (this.#guard) break;
      const from = this.#states.get(approvalId) ?? 'absent';
      if (from === state) continue;
      this.#states.set(approvalId, state);
      this.#as(last, () =>
        this.#env.history.emit({ kind: 'record-write', actor: last ?? 'runtime', approvalId, version: this.#version, from, state }),
      );
    }
  }

  /** At a quiet point: report the binding calls' reads, open the timers' and cards' gates, end the turns that are done. */
  #atQuiet() {
    const q = this.#last!;
    for (const turn of this.#reads.splice(0)) {
      this.#as(turn, () => {
        this.#env.accessed({ key: RECORD, mode: 'read' }, 'messages.read');
        if (!this.#guard) for (const [approvalId, state] of this.#states) {
          this.#env.history.emit({ kind: 'record-read', actor: turn, approvalId, version: this.#version, state });
        }
      });
    }
    // The debounces' gates, in set order.
    for (const timer of this.#toOpen.splice(0)) {
      const g: TimerGate = { timer, released: false };
      this.#timerGates.push(g);
      const owner = timer.owner!;
      this.#as(owner, () =>
        this.#env.gate(owner, `timer.fire(${timer.delay}ms)`, { overtakes: true }).then(() => {
          g.released = true;
          if (this.#timers.get(timer.id) === timer) this.#fire(timer);
          else this.#kick();
        }),
      );
    }
    // Cards, in the order the tabs read them.
    for (const tab of this.#tabs.values()) {
      for (const chunk of tab.chunks.splice(0)) {
        if (chunk.type === 'tool-input-available') {
          this.#inputs.set(String(chunk['toolCallId']), actionOfCall(String(chunk['toolName']), chunk['input']));
        } else if (chunk.type === 'tool-approval-request') {
          const approvalId = String(chunk['toolCallId']);
          const action = this.#inputs.get(approvalId) ?? actionOfCall('unknown', {});
          const card: Card = { turn: tab.turn, approvalId, action, delivered: false };
          this.#cards.push(card);
          if (!this.#proposed.has(tab.turn)) this.#proposed.set(tab.turn, { approvalId, action });
          this.#show(card);
        }
      }
    }
    // A card in a continuation's stream (the flow's second approval, `a1.2`): shown by the turn whose tool call ran
    // the first (its continuation streamed it), once, though every tab is sent the stream.
    for (const tab of this.#tabs.values()) {
      for (const chunk of tab.others.splice(0)) {
        if (chunk.type !== 'tool-approval-request') continue;
        const approvalId = String(chunk['toolCallId']);
        const base = approvalId.split('.')[0]!;
        const turn = this.#dispatchedBy.get(base);
        if (turn === undefined || turn !== tab.turn || this.#cards.some((c) => c.approvalId === approvalId)) continue;
        const action = this.#inputs.get(approvalId) ?? actionOfCall('unknown', {});
        const card: Card = { turn, approvalId, action, delivered: false };
        this.#cards.push(card);
        this.#show(card);
      }
    }
    // Disclosures: the first outcome of each stream for an approval (the continuation is streamed to every tab, the
    // proposing one included), told by the turn whose BACKEND call it answered. The tab has read it in this release
    // (the quiet point waits for the frames), so it is told here, declared where it happens, with no gate of its own.
    for (const tab of this.#tabs.values()) {
      for (const { stream, chunk } of tab.outcomes.splice(0)) {
        const approvalId = String(chunk['toolCallId']);
        const turn = this.#dispatchedBy.get(approvalId);
        const key = `${stream}/${approvalId}`;
        if (turn === undefined || this.#told.has(key) || chunk['preliminary']) continue;
        this.#told.add(key);
        // Guarded: what the guard said became of the call (a refused spend tells nothing), not the tool part.
        const says = this.#guard ? this.#guardSays.get(approvalId) : OUTCOME[String(chunk.type)]!;
        if (says === undefined) continue;
        this.#toldBy.add(`${turn}/${approvalId}`);
        this.#as(turn, () => {
          this.#env.declare(TELL);
          this.#env.history.emit({ kind: 'disclosure', actor: turn, approvalId, says });
        });
      }
    }
    for (const w of [...this.#waiters]) {
      if (this.#turnIsDone(w.turn, q)) {
        this.#waiters.splice(this.#waiters.indexOf(w), 1);
        w.resolve();
      }
    }
  }

  /**
   * A card reaches the user. Guarded: the app first records it with the guard (bound to the action and the world the
   * model proposed it in); a card the guard will not record (its id is taken) is not shown: nothing could spend it.
   */
  #show(card: Card) {
    const { turn, approvalId, action } = card;
    this.#as(turn, async () => {
      try {
        let show = true;
        if (this.#guard) {
          const world = this.#proposedIn.get(approvalId);
          if (world === undefined) throw new Error(`no proposal of ${approvalId} in this world`);
          try {
            await this.#guard.app.propose(turn, approvalId, action, world);
          } catch (error) {
            // The guard's refusal (GuardError; the package is core's dependency, not this one's).
            if (!(error instanceof Error && error.name === 'GuardError')) throw error;
            show = false;
          }
        }
        if (show) await this.#env.connections.deliverCard(turn, approvalId, action);
        card.delivered = true;
        this.#kick();
      } catch (error) {
        this.#fail(error instanceof Error ? error : new Error(String(error)));
      }
    });
  }

  // ---- timers

  #onClock(message: ClockMessage) {
    this.#clockBuffer.set(message.seq, message);
    // In the order the object sent them: a re-arm's clear must not overtake its set.
    for (let m = this.#clockBuffer.get(this.#nextSeq); m; m = this.#clockBuffer.get(this.#nextSeq)) {
      this.#clockBuffer.delete(this.#nextSeq++);
      if (m.op === 'set') this.#set(m);
      else this.#clear(m.id);
    }
    this.#kick();
  }

  #set(m: ClockMessage) {
    const owner = this.#turnOf(m.origin as Origin);
    const delay = m.delay ?? 0;
    const site = m.site ?? '';
    const kind = delay >= LONG ? 'long' : owner !== undefined && !CLOCK_SITES.some((p) => site.includes(p)) ? 'debounce' : 'clock';
    const timer: Timer = { id: m.id, delay, owner, kind, site };
    this.#timers.set(m.id, timer);
    // A timer the object set for a turn is the object's memory, changed by that turn's code.
    if (owner !== undefined) this.#as(owner, () => this.#env.accessed({ key: OBJECT, mode: 'write' }, `timer.set(${delay}ms)`));
    if (kind === 'debounce') this.#toOpen.push(timer);
    // A poll wakes on the run's virtual clock, when every turn is blocked.
    if (kind === 'clock') timer.handle = this.#as(owner, () => setTimeout(() => this.#timers.get(m.id) === timer && this.#fire(timer), delay));
  }

  #clear(id: number) {
    const timer = this.#timers.get(id);
    if (!timer) return;
    this.#timers.delete(id);
    if (timer.handle !== undefined) clearTimeout(timer.handle);
    const i = this.#toOpen.indexOf(timer);
    if (i >= 0) this.#toOpen.splice(i, 1);
  }

  #fire(timer: Timer) {
    this.#timers.delete(timer.id);
    const fired = outside(() => this.#control('fire', { id: timer.id }));
    void this.#env.external(fired).then(
      () => this.#kick(),
      (error: unknown) => this.#fail(error instanceof Error ? error : new Error(String(error))),
    );
  }

  // ---- the model and the backend

  async #onBinding(binding: 'MODEL' | 'BACKEND', req: Request): Promise<globalThis.Response> {
    const id = Number(req.headers.get('x-cs-call'));
    const origin = JSON.parse(req.headers.get('x-cs-origin') ?? 'null') as Origin;
    const body = (await req.json()) as Record<string, unknown>;
    const owner = this.#turnOf(origin);
    if (owner === undefined) {
      const error = new Error(`a ${binding} call no turn owns (origin ${JSON.stringify(origin)})`);
      this.#fail(error);
      return answer({ error: error.message }, 500);
    }
    if ([...this.#timers.values()].some((t) => t.owner === owner && t.kind === 'debounce')) {
      const error = new Error(`${owner}'s ${binding} call while its debounce timer is armed: the timer gate would hold it back`);
      this.#fail(error);
      return answer({ error: error.message }, 500);
    }
    const call = { owner, parked: false };
    this.#calls.set(id, call);
    this.#reads.push(owner);
    try {
      const reply = await this.#as(owner, async () => {
        call.parked = true;
        const result = binding === 'MODEL' ? await this.#model(owner, body) : await this.#backend(owner, body);
        call.parked = false;
        return result;
      });
      return answer(reply);
    } catch (error) {
      return answer({ error: String(error) }, 500);
    } finally {
      this.#calls.delete(id);
      this.#kick();
    }
  }

  /** Core's gates declare their own accesses; what the object goes on to do after them is declared here. */
  #objectGoesOn() {
    for (const access of OBJECT_STEP) this.#env.declare(access);
  }

  #proposerFor(): Proposer {
    return {
      model: this.#env.model,
      backend: this.#env.backend,
      history: this.#env.history,
      request: () => this.#request,
      nextApproval: () => `a${++this.#proposals}`,
      parallel: () => this.#parallel,
    };
  }

  async #model(turn: string, body: Record<string, unknown>) {
    const prompt = (body['prompt'] ?? []) as { role: string }[];
    if (prompt[prompt.length - 1]?.role === 'user') {
      const proposer = this.#proposerFor();
      const reply = await proposeRequested(proposer, async (id, alternatives, decision) => {
        const { action, world } = await proposeAction(proposer, turn, id, alternatives, decision);
        this.#inputs.set(id, action);
        this.#proposedIn.set(id, world);
        return { id, action };
      });
      this.#objectGoesOn();
      const calls = 'call' in reply ? [reply.call] : 'calls' in reply ? reply.calls : [];
      return {
        content: calls.map((c) => ({ type: 'tool-call', toolCallId: c.id, toolName: c.action.operation, input: JSON.stringify(toolInput(c.action)) })),
      };
    }
    // After a tool ran: the flow's second approval, once (as the AI SDK adapter's model asks for it).
    const followUp = this.#request.followUp;
    if (followUp) {
      const messages = prompt as { role: string; content?: unknown }[];
      const ids = (role: string, type: string) =>
        messages
          .flatMap((m) => (m.role === role && Array.isArray(m.content) ? (m.content as { type: string; toolCallId?: string }[]) : []))
          .filter((c) => c.type === type)
          .map((c) => c.toolCallId);
      const called = new Set(ids('assistant', 'tool-call'));
      const first = ids('tool', 'tool-result').find((id) => id && !id.includes('.') && !called.has(followUpId(id)));
      if (first) {
        const id = followUpId(first);
        const { action, world } = await proposeAction(this.#proposerFor(), turn, id, [followUp], 'propose-follow-up');
        this.#inputs.set(id, action);
        this.#proposedIn.set(id, world);
        this.#objectGoesOn();
        return { content: [{ type: 'tool-call', toolCallId: id, toolName: action.operation, input: JSON.stringify(toolInput(action)) }] };
      }
    }
    await this.#env.gate(turn, 'model.reply', { access: OBJECT_STEP });
    return { content: [{ type: 'text', text: 'Done.' }] };
  }

  async #backend(turn: string, body: Record<string, unknown>) {
    const approvalId = String(body['toolCallId']);
    const action = actionOfCall(String(body['operation']), body['input']);
    this.#dispatchedBy.set(approvalId, turn);
    try {
      if (this.#guard && NEEDS_APPROVAL.has(action.operation)) {
        // Guarded: the tool's execute spends the approval (bound to this call and the world) before it calls the
        // backend with the guard's idempotency key; a refused or failed spend throws, so the tool part is an error.
        const outcome = await this.#guard.app.run(turn, approvalId, action, `${turn}/${approvalId}`);
        this.#guardSays.set(approvalId, outcome === 'ran' || outcome === 'ran-before' ? 'happened' : outcome === 'unknown' ? 'unknown' : undefined);
        if (outcome === 'refused' || outcome === 'unknown') throw new Error(`${action.operation}: the approval guard says ${outcome}`);
        return { ok: true, applied: outcome === 'ran' };
      }
      const result = await this.#env.backend.call(turn, { approvalId, dispatch: `${turn}/${approvalId}`, action });
      return { ok: true, applied: result.applied };
    } finally {
      // Answered or failed (error-after-effect), the object goes on: it stores the output or the error and reads the
      // record for the model's next call.
      this.#objectGoesOn();
    }
  }
}

/** Each approval's state in the messages: the tool parts of the assistant's messages, by tool call id. */
export function recordStates(messages: readonly unknown[]): Map<string, RecordState> {
  const states = new Map<string, RecordState>();
  for (const m of messages as { role?: string; parts?: { type?: string; toolCallId?: string; state?: string }[] }[]) {
    if (m.role !== 'assistant') continue;
    for (const p of m.parts ?? []) {
      if (!p.type?.startsWith('tool-') || !p.toolCallId || !p.state) continue;
      const state = STATE_OF[p.state];
      if (state) states.set(p.toolCallId, state);
    }
  }
  return states;
}
