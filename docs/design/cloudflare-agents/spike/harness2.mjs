// SPIKE 2 Node side: one Miniflare, one "world" (a fresh Durable Object) per
// run. Bindings MODEL / BACKEND / CLOCK are served here; every call carries
// x-cs-do (the world), x-cs-call (its id inside the object) and x-cs-origin
// (the client frame it descends from, as the prelude saw it).
import { Miniflare, Response } from "miniflare";
import WebSocket from "ws";

export function deferred() {
  let resolve, reject;
  const promise = new Promise((a, b) => { resolve = a; reject = b; });
  return { promise, resolve, reject };
}
const tick = () => new Promise((r) => setImmediate(r));

export class World {
  constructor(name, url, ns = "ChatAgent") {
    this.name = name; this.url = url; this.ns = ns;
    this.calls = new Map();      // `${binding}#${id}` -> {binding, id, origin, body, held, release}
    this.holds = { MODEL: 0, BACKEND: 0 };
    this.counts = { MODEL: 0, BACKEND: 0 };
    this.clock = [];             // CLOCK notifications as received
    this.timers = new Map();     // id -> {id, delay, due, origin}
    this.vnow = 0;
    this.clients = [];
    this.step = { calls: [], clock: [] };   // per-step buffers for the trace
    this.trace = [];
    this.probes = 0;
    this.busy = {};              // why a probe did not end settle()
  }
  holdNext(binding) { this.holds[binding]++; }
  parked(id) { for (const c of this.calls.values()) if (c.id === id && c.held) return true; return false; }
  heldCalls(binding) { return [...this.calls.values()].filter((c) => c.held && (!binding || c.binding === binding)); }
  release(binding) {
    const c = this.heldCalls(binding)[0];
    if (!c) throw new Error(`nothing held on ${binding}`);
    c.held = false; c.release();
    return c;
  }
  // scripted model: a tool call until the prompt has a tool result, then text
  decide(prompt) {
    const r = prompt.flatMap((m) => (Array.isArray(m.content) ? m.content : [])).find((p) => p.type === "tool-result");
    if (r) return [{ type: "text", text: `Done: ${JSON.stringify(r.output)}` }];
    return [{ type: "tool-call", toolCallId: `call_${this.counts.MODEL}`, toolName: "transfer", input: JSON.stringify({ amount: 100 }) }];
  }
  async onBinding(binding, req) {
    const id = Number(req.headers.get("x-cs-call"));
    const origin = JSON.parse(req.headers.get("x-cs-origin") || "null");
    const body = await req.json();
    const n = ++this.counts[binding];
    const c = { binding, id, n, origin, held: false, release: null };
    this.calls.set(`${binding}#${id}`, c);
    const rec = { binding, n, callId: id, origin };
    if (binding === "BACKEND") rec.toolCallId = body.toolCallId;
    let answer;
    if (binding === "MODEL") { answer = { content: this.decide(body.prompt) }; rec.answer = answer.content.map((x) => x.type).join(","); rec.promptLen = body.prompt.length; }
    else answer = { ok: true, transferId: `tx-${n}`, amount: body.amount };
    if (this.holds[binding] > 0) {
      this.holds[binding]--;
      const d = deferred();
      c.held = true; c.release = d.resolve; rec.held = true;
      this.step.calls.push(rec);
      await d.promise;
    } else this.step.calls.push(rec);
    this.calls.delete(`${binding}#${id}`);
    return Response.json(answer);
  }
  onClock(msg) {
    this.clock.push(msg);
    this.step.clock.push(msg);
    if (msg.op === "set") this.timers.set(msg.id, { id: msg.id, delay: msg.delay, due: this.vnow + msg.delay, origin: msg.origin, interval: msg.interval });
    if (msg.op === "clear") this.timers.delete(msg.id);
  }
  async control(op, params = {}) {
    const u = new URL(`/__cs/${this.ns}/${this.name}/${op}`, this.url);
    for (const [k, v] of Object.entries(params)) u.searchParams.set(k, String(v));
    const r = await fetch(u);
    if (!r.ok) throw new Error(`${op}: ${r.status} ${await r.text()}`);
    return r.json();
  }
  connect(label) {
    const c = new Client(label, this);
    this.clients.push(c);
    return c;
  }
  // ---- quiescence: see DESIGN.md "The adapter's design" point 4
  async settle({ rounds = 0, maxProbes = 200 } = {}) {
    for (let i = 0; i < maxProbes; i++) {
      await Promise.all(this.clients.map((c) => c.until(() => c.acked >= c.sentCount, "acks")));
      const q = await this.control("quiet", { rounds });
      this.probes++;
      await Promise.all(this.clients.map((c) => c.until(() => c.received >= (q.sent[c.label] ?? 0), `frames ${q.sent[c.label]}`)));
      const unparked = q.pendingBindingCalls.filter((p) => !this.parked(p.id) || !this.calls.has(`${p.binding}#${p.id}`));
      const clockAgrees = q.timers.length === this.timers.size && q.timers.every((t) => this.timers.has(t.id));
      if (process.env.SPIKE_NAIVE) return q;   // negative control: trust one probe, no frame counting
      const why = [q.hidden && "HIDDEN", !q.stable && "activity", q.zeroTimers && "zeroTimer", q.clockPending && "clockPending", q.storagePending && "storagePending",
        unparked.length && "unparkedBindingCall", !clockAgrees && "clockDisagrees"].filter(Boolean);
      for (const r of why) this.busy[r] = (this.busy[r] ?? 0) + 1;
      if (q.idle && unparked.length === 0 && clockAgrees && this.clients.every((c) => c.acked >= c.sentCount)) {
        const replying = this.clients.filter((c) => c.deferred.length);
        if (replying.length) { this.busy.deferredClientReply = (this.busy.deferredClientReply ?? 0) + 1; for (const c of replying) c.flushDeferred(); continue; }
        return q;
      }
      await tick();
    }
    throw new Error(`${this.name}: not quiet after ${maxProbes} probes`);
  }
  // fire the earliest virtual timer (ties: lowest id); time jumps to its due time
  async fireNext() {
    const t = [...this.timers.values()].sort((a, b) => a.due - b.due || a.id - b.id)[0];
    if (!t) throw new Error("no timer to fire");
    this.vnow = Math.max(this.vnow, t.due);
    if (t.interval) t.due = this.vnow + t.delay; else this.timers.delete(t.id);
    const r = await this.control("fire", { id: t.id });
    this.step.fired = [...(this.step.fired ?? []), { id: t.id, delay: t.delay, origin: t.origin, vnow: this.vnow, fired: r.fired }];
    return r;
  }
  // close one step of the trace (call after settle)
  record(label, q) {
    const s = {
      step: label,
      frames: Object.fromEntries(this.clients.map((c) => [c.label, c.takeNew()])),
      calls: this.step.calls.sort((a, b) => a.binding.localeCompare(b.binding) || a.n - b.n),
      clock: this.step.clock.sort((a, b) => a.seq - b.seq),
      fired: this.step.fired ?? [],
      probe: q && { alarm: q.alarm, idle: q.idle, pendingBindingCalls: q.pendingBindingCalls, timers: q.timers, sent: q.sent, recvd: q.recvd },
    };
    this.step = { calls: [], clock: [] };
    this.trace.push(s);
    return s;
  }
  async close() { await Promise.all(this.clients.map((c) => c.close())); }
}

export class Client {
  constructor(label, world) {
    this.label = label; this.world = world;
    this.frames = []; this.newFrames = [];
    this.received = 0; this.sentCount = 0; this.acked = 0;
    this.deferred = [];     // automatic replies (resume ack), sent only at quiet points
    this.waiters = new Set();
    const u = new URL(`/agents/chat-agent/${world.name}?_pk=${label}`, world.url);
    u.protocol = "ws:";
    this.ws = new WebSocket(u);
    this.open = new Promise((res, rej) => { this.ws.once("open", res); this.ws.once("error", rej); });
    this.ws.on("message", (data) => {
      this.received++;
      let f; try { f = JSON.parse(data.toString()); } catch { f = { raw: data.toString() }; }
      if (f.type === "__cs_ack") this.acked = f.n;
      else {
        this.frames.push(f); this.newFrames.push(f);
        if (f.type === "cf_agent_stream_resuming") this.deferred.push({ type: "cf_agent_stream_resume_ack", id: f.id });
      }
      if (process.env.SPIKE_VERBOSE) console.log(`  [${label}<]`, JSON.stringify(f).slice(0, 200));
      for (const w of this.waiters) if (w.pred()) { this.waiters.delete(w); w.resolve(); }
    });
  }
  until(pred, what, ms = 5000) {
    if (pred()) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const w = { pred, resolve };
      this.waiters.add(w);
      setTimeout(() => { if (this.waiters.delete(w)) reject(new Error(`${this.label}: timeout waiting for ${what} (received ${this.received}, acked ${this.acked}/${this.sentCount})`)); }, ms).unref();
    });
  }
  send(obj) { this.sentCount++; this.ws.send(JSON.stringify(obj)); }
  flushDeferred() { const d = this.deferred; this.deferred = []; for (const f of d) this.send(f); }
  takeNew() { const f = this.newFrames; this.newFrames = []; return f; }
  chatRequest(messages, id) {
    this.send({ type: "cf_agent_use_chat_request", id, init: { method: "POST", body: JSON.stringify({ messages, trigger: "submit-message" }) } });
  }
  approve(toolCallId) { this.send({ type: "cf_agent_tool_approval", toolCallId, approved: true, autoContinue: true }); }
  close() {
    if (this.ws.readyState === WebSocket.CLOSED) return Promise.resolve();
    const closed = new Promise((r) => this.ws.once("close", r));
    this.ws.close();
    const t = setTimeout(() => this.ws.terminate(), 200);
    return closed.then(() => clearTimeout(t));
  }
}

// One Miniflare for all worlds; bindings dispatch on x-cs-do.
export async function startMiniflare(worlds, scriptPath = new URL("./dist/worker.js", import.meta.url).pathname) {
  const world = (req) => {
    const w = worlds.get(req.headers.get("x-cs-do"));
    if (!w) throw new Error(`binding call from unknown world ${req.headers.get("x-cs-do")}`);
    return w;
  };
  const mf = new Miniflare({
    modules: true,
    scriptPath,
    compatibilityDate: "2026-04-01",
    compatibilityFlags: ["nodejs_compat"],
    durableObjects: {
      ChatAgent: { className: "ChatAgent", useSQLite: true },
      ChatAgentNoRecovery: { className: "ChatAgentNoRecovery", useSQLite: true },
    },
    serviceBindings: {
      MODEL: (req) => world(req).onBinding("MODEL", req),
      BACKEND: (req) => world(req).onBinding("BACKEND", req),
      CLOCK: async (req) => {
        const msg = await req.json();
        const w = worlds.get(msg.do);
        if (w) w.onClock(msg); else orphanClock.push(msg);
        return new Response("ok");
      },
    },
    verbose: !!process.env.SPIKE_VERBOSE,
  });
  const url = await mf.ready;
  return { mf, url };
}
export const orphanClock = [];
