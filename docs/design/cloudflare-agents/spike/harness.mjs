// Node-side harness for the Cloudflare Agents (AIChatAgent) spike:
//  - starts Miniflare (workerd) with the bundled worker, a SQLite-backed DO and
//    two service bindings served by functions in this process:
//      MODEL   : scripted LLM (first a tool call transfer({amount:100}), after a
//                tool result a text); every call can be held by a gate
//      BACKEND : the tool's side effect; counts calls; can be held by a gate
//  - AgentSocket: a minimal client of the ai-chat WebSocket protocol.
import { Miniflare, Response } from "miniflare";
import WebSocket from "ws";

export const PERSIST = new URL("./state", import.meta.url).pathname;
export const t0 = performance.now();
export const now = () => Math.round(performance.now() - t0);

// ---------------------------------------------------------------- gates
// A Gate lets the test hold a binding's answer until it calls release().
export class Gate {
  constructor(label) {
    this.label = label;
    this.arrived = deferred();
    this.released = deferred();
  }
  release() { this.released.resolve(); }
}
export function deferred() {
  let resolve, reject;
  const promise = new Promise((a, b) => { resolve = a; reject = b; });
  return { promise, resolve, reject };
}

// ---------------------------------------------------------------- host state
export class Host {
  constructor() {
    this.events = [];          // ordered trace of everything the host saw
    this.modelCalls = [];
    this.backendCalls = [];
    this.modelGates = [];      // FIFO: next MODEL call waits on gate[0] if present
    this.backendGates = [];
  }
  log(kind, data = {}) {
    const e = { t: now(), kind, ...data };
    this.events.push(e);
    if (process.env.SPIKE_VERBOSE) console.log("  [host]", JSON.stringify(e));
  }
  holdNextModel(label = "model") { const g = new Gate(label); this.modelGates.push(g); return g; }
  holdNextBackend(label = "backend") { const g = new Gate(label); this.backendGates.push(g); return g; }

  // Scripted model: tool call until the prompt carries a tool result, then text.
  decide(prompt) {
    const toolResult = prompt.flatMap((m) => (Array.isArray(m.content) ? m.content : []))
      .find((p) => p.type === "tool-result" && p.toolName === "transfer");
    if (toolResult) return [{ type: "text", text: `Done: transfer result ${JSON.stringify(toolResult.output)}` }];
    return [{ type: "tool-call", toolCallId: `call_${this.modelCalls.length}_${Date.now()}`, toolName: "transfer", input: JSON.stringify({ amount: 100 }) }];
  }

  bindings() {
    return {
      MODEL: async (req) => {
        const body = await req.json();
        const n = this.modelCalls.push(body);
        const content = this.decide(body.prompt);
        this.log("model:call", { n, mode: body.mode, answer: content.map((c) => c.type).join(",") });
        const gate = this.modelGates.shift();
        if (gate) { gate.arrived.resolve(n); this.log("model:held", { n, gate: gate.label }); await gate.released.promise; }
        this.log("model:reply", { n });
        return Response.json({ content });
      },
      BACKEND: async (req) => {
        const body = await req.json();
        const n = this.backendCalls.push(body);
        this.log("backend:call", { n, ...body });
        const gate = this.backendGates.shift();
        if (gate) { gate.arrived.resolve(n); this.log("backend:held", { n, gate: gate.label }); await gate.released.promise; }
        this.log("backend:reply", { n });
        return Response.json({ ok: true, transferId: `tx-${n}`, amount: body.amount });
      },
    };
  }
}

// ---------------------------------------------------------------- miniflare
export async function startMiniflare(host, { scriptPath = new URL("./dist/worker.js", import.meta.url).pathname, persist = PERSIST } = {}) {
  const t = performance.now();
  const mf = new Miniflare({
    modules: true,
    scriptPath,
    compatibilityDate: "2026-04-01",
    compatibilityFlags: ["nodejs_compat"],
    durableObjects: {
      ChatAgent: { className: "ChatAgent", useSQLite: true },
      ChatAgentNoRecovery: { className: "ChatAgentNoRecovery", useSQLite: true },
    },
    durableObjectsPersist: persist,
    serviceBindings: host.bindings(),
    // keep workerd quiet unless asked
    verbose: !!process.env.SPIKE_VERBOSE,
  });
  const url = await mf.ready;
  return { mf, url, startMs: Math.round(performance.now() - t) };
}

// ---------------------------------------------------------------- protocol client
let seq = 0;
export const rid = (p = "r") => `${p}${++seq}_${Math.random().toString(36).slice(2, 8)}`;

export class AgentSocket {
  // autoAck: answer cf_agent_stream_resuming with cf_agent_stream_resume_ack like
  // useAgentChat does (agents/dist/chat/react.js), so continuation chunks flow.
  constructor(label, url, agentName, { autoAck = true, agentPath = "chat-agent" } = {}) {
    this.label = label;
    this.autoAck = autoAck;
    this.frames = [];   // every parsed frame received
    this.waiters = [];
    const u = new URL(`/agents/${agentPath}/${agentName}`, url);
    u.protocol = "ws:";
    this.ws = new WebSocket(u);
    this.open = new Promise((res, rej) => { this.ws.once("open", res); this.ws.once("error", rej); });
    this.ws.on("message", (data) => {
      let f; try { f = JSON.parse(data.toString()); } catch { f = { raw: data.toString() }; }
      f._t = now();
      this.frames.push(f);
      if (this.autoAck && f.type === "cf_agent_stream_resuming") this.send({ type: "cf_agent_stream_resume_ack", id: f.id });
      if (process.env.SPIKE_VERBOSE) console.log(`  [${label}<]`, JSON.stringify(f).slice(0, 300));
      this.waiters = this.waiters.filter((w) => !(w.pred(f) && (w.resolve(f), true)));
    });
  }
  send(obj) {
    if (process.env.SPIKE_VERBOSE) console.log(`  [${this.label}>]`, JSON.stringify(obj).slice(0, 300));
    this.ws.send(JSON.stringify(obj));
  }
  waitFor(pred, ms = 10_000, what = "frame") {
    const hit = this.frames.find(pred);
    if (hit) return Promise.resolve(hit);
    return new Promise((resolve, reject) => {
      const w = { pred, resolve };
      this.waiters.push(w);
      setTimeout(() => reject(new Error(`${this.label}: timeout waiting for ${what}`)), ms).unref();
    });
  }
  // Resolves on the next frame matching pred that arrives AFTER this call.
  next(pred, ms = 10_000, what = "frame") {
    return new Promise((resolve, reject) => {
      this.waiters.push({ pred, resolve });
      setTimeout(() => reject(new Error(`${this.label}: timeout waiting for ${what}`)), ms).unref();
    });
  }
  // Same shape as agents' WebSocketChatTransport.sendMessages (ws-chat-transport-*.js)
  chatRequest(messages, { id = rid("req"), trigger = "submit-message", extra = {} } = {}) {
    this.send({ type: "cf_agent_use_chat_request", id, init: { method: "POST", body: JSON.stringify({ messages, trigger, ...extra }) } });
    return id;
  }
  // Same shape as useAgentChat's sendToolApprovalToServer (agents/dist/chat/react.js)
  approve(toolCallId, approved = true, autoContinue = true) {
    this.send({ type: "cf_agent_tool_approval", toolCallId, approved, autoContinue });
  }
  // UI chunks of one response id, parsed
  chunks(id) {
    return this.frames.filter((f) => f.type === "cf_agent_use_chat_response" && f.id === id && f.body)
      .map((f) => { try { return JSON.parse(f.body); } catch { return f.body; } });
  }
  responseDone(id, ms) { return this.waitFor((f) => f.type === "cf_agent_use_chat_response" && f.id === id && (f.done || f.error), ms, `done of ${id}`); }
  // Continuation responses (auto-continue after approval) carry continuation:true
  continuationIds() { return [...new Set(this.frames.filter((f) => f.type === "cf_agent_use_chat_response" && f.continuation).map((f) => f.id))]; }
  // workerd does not always finish the close handshake promptly (ws waits 30 s),
  // so close, then terminate after a short grace period.
  close() {
    if (this.ws.readyState === WebSocket.CLOSED) return Promise.resolve();
    const closed = new Promise((r) => this.ws.once("close", r));
    this.ws.close();
    const timer = setTimeout(() => this.ws.terminate(), 200);
    return closed.then(() => clearTimeout(timer));
  }
}

export const userMessage = (text, id = rid("u")) => ({ id, role: "user", parts: [{ type: "text", text }] });

export async function getMessages(url, agentName, agentPath = "chat-agent") {
  const r = await fetch(new URL(`/agents/${agentPath}/${agentName}/get-messages`, url));
  if (!r.ok) throw new Error(`get-messages ${r.status}: ${await r.text()}`);
  return r.json();
}
export const toolParts = (messages) => messages.flatMap((m) => m.parts.filter((p) => p.type === "tool-transfer").map((p) => ({ msg: m.id, state: p.state, toolCallId: p.toolCallId, approval: p.approval, output: p.output })));
export const texts = (messages) => messages.flatMap((m) => m.parts.filter((p) => p.type === "text").map((p) => `${m.role}: ${p.text}`));
