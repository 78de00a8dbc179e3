// @ts-nocheck
// Runs inside workerd, imported first by the generated entry (src/bundle.ts); not type-checked: no Workers types.
// Spike 2's prelude (docs/design/cloudflare-agents/spike/src/prelude.ts) plus: writes to the chat's message tables
// noted with their origin (recordWrites, handed to Node in the next quiet answer), each timer's set naming the
// functions that set it (site), and an abort control op (the process dies: ctx.abort()).
// The prelude: imported FIRST by src/entry.ts, so it runs before any
// framework module is evaluated. It
//   1. replaces globalThis.setTimeout/clearTimeout/setInterval/clearInterval
//      with virtual timers owned by the Durable Object instance that set them
//      (found through an AsyncLocalStorage entered on every DO entry point);
//      Node learns of each timer through the CLOCK binding (counted as pending
//      until Node answers) and in every /__cs/quiet answer, and fires it with
//      /__cs/fire?id=N. Zero-delay timers stay real but count as "busy".
//   2. wraps a DO class (instrument()) to ack each client frame, number the
//      frames sent per socket, count binding calls / timers / storage calls,
//      and serve /__cs/quiet and /__cs/fire.
//   3. attributes binding calls and timers to the client frame they descend
//      from (a second AsyncLocalStorage, entered per incoming frame/request).
import { AsyncLocalStorage } from "node:async_hooks";
import * as workers from "cloudflare:workers";
// The table the installed framework writes the chat's messages to (src/compat.ts).
import { MESSAGE_TABLE } from "cs-compat";

const real = {
  setTimeout: globalThis.setTimeout.bind(globalThis),
  clearTimeout: globalThis.clearTimeout.bind(globalThis),
  setInterval: globalThis.setInterval.bind(globalThis),
  clearInterval: globalThis.clearInterval.bind(globalThis),
};
const realSend = WebSocket.prototype.send;

export type Origin = { kind: string; sock?: string; frame?: number; path?: string } | undefined;

interface VTimer {
  id: number; delay: number; interval: boolean; cb: Function; args: unknown[];
  run: (fn: () => unknown) => unknown; origin: Origin; setAt: number; fired: number;
}
interface Inst {
  name: string;
  env: any;
  ctx: DurableObjectState;
  timers: Map<number, VTimer>;
  nextTimer: number;
  zeroTimers: number;           // real zero-delay timers not yet run
  clockPending: number;         // CLOCK notifications Node has not answered yet
  calls: Map<number, { binding: string; origin: Origin }>;
  nextCall: number;
  storagePending: number;       // ctx.storage promises not settled yet
  storageOps: Record<string, number>;
  sent: Record<string, number>; // frames sent per socket (incl. acks)
  recvd: Record<string, number>;
  activity: number;             // bumped on everything the prelude sees
  seq: number;                  // virtual timer-set order (for the trace)
  unattributedTimers: number;
  alarmAt: number | null;       // last real alarm time the framework set (Date.now() clock)
  notes: string[];
  recordWrites: Origin[];        // writes to cf_agents_session_message* since the last quiet answer
  aborted: boolean;
  alarm0: ((...a: unknown[]) => unknown) | null;  // the framework's own alarm handler
  vAlarm: any;                  // the virtual alarm's timer handle, if one is set
}

const doALS = new AsyncLocalStorage<Inst>();
const originALS = new AsyncLocalStorage<Origin>();
export const outsideTimers = { real: 0 };
const zeroSet = { n: 0 };     // timers set with no DO in context

// What does `import { env } from "cloudflare:workers"` give us at module scope?
export const envProbe = (() => {
  try {
    const e = (workers as any).env;
    return { hasEnvExport: e !== undefined, bindings: e ? Object.keys(e).sort() : [] };
  } catch (err) {
    return { hasEnvExport: false, error: String(err) };
  }
})();

function snapshot(): (fn: () => unknown) => unknown {
  const S = (AsyncLocalStorage as any).snapshot;
  if (typeof S === "function") return S();
  const d = doALS.getStore(), o = originALS.getStore();
  return (fn) => doALS.run(d as Inst, () => originALS.run(o, fn));
}

function tellClock(inst: Inst, body: unknown) {
  // Not fire-and-forget: counted until Node answered, and the probe is "busy"
  // while any is outstanding. Run outside the origin context so this call is
  // never mistaken for the framework's work.
  const clock = inst.env.CLOCK;
  if (!clock) return;
  inst.clockPending++;
  inst.activity++;
  clock.fetch("http://clock/", { method: "POST", body: JSON.stringify({ do: inst.name, seq: ++inst.seq, ...(body as object) }) })
    .then((r: Response) => r.arrayBuffer())
    .catch((e: unknown) => inst.notes.push(`CLOCK failed: ${e}`))
    .finally(() => { inst.clockPending--; inst.activity++; });
}

function vSetTimeout(interval: boolean) {
  return function (cb: Function | string, delay?: number, ...args: unknown[]) {
    const inst = doALS.getStore();
    const d = Math.max(0, Number(delay) || 0);
    if (!inst) {
      outsideTimers.real++;
      return (interval ? real.setInterval : real.setTimeout)(cb as any, delay, ...args);
    }
    if (typeof cb !== "function") throw new Error("string timers not supported");
    inst.activity++;
    if (d === 0 && !interval) {
      // Real: runs on the next turn of workerd's loop, before a probe can say idle.
      inst.zeroTimers++; zeroSet.n++;
      let done = false;
      const h = real.setTimeout(() => {
        if (done) return; done = true; inst.zeroTimers--; inst.activity++;
        cb(...args);
      }, 0);
      return { __zero: h, cancel() { if (!done) { done = true; inst.zeroTimers--; inst.activity++; real.clearTimeout(h); } } } as any;
    }
    const id = ++inst.nextTimer;
    const t: VTimer = { id, delay: d, interval, cb, args, run: snapshot(), origin: originALS.getStore(), setAt: inst.seq, fired: 0 };
    const site = siteOf(new Error().stack);
    if (!t.origin) inst.unattributedTimers++;
    if (d >= 3_600_000 && !inst.notes.some((n) => n.startsWith("long timer"))) {
      inst.notes.push(`long timer ${d} ms from: ${String(new Error().stack).split("\n").slice(2, 5).map((l) => l.trim()).join(" <- ")}`);
    }
    inst.timers.set(id, t);
    tellClock(inst, { op: "set", id, delay: d, interval, origin: t.origin, site });
    return new VHandle(id, inst);
  };
}
// The functions that set a timer, innermost first ("armTimer < schedule < handleMessage"), from the stack: the
// bundle is not minified, so Node can tell a debounce from a poll by them.
function siteOf(stack: string | undefined): string {
  const names: string[] = [];
  for (const line of String(stack ?? "").split("\n").slice(2)) {
    const m = /^\s*at (?:async )?([^\s(]+)/.exec(line);
    if (m && m[1] !== "new" && !m[1].startsWith("file:") && !m[1].includes("/")) names.push(m[1]);
    if (names.length >= 8) break;
  }
  return names.join(" < ");
}

class VHandle {
  constructor(readonly id: number, readonly inst: Inst) {}
  [Symbol.toPrimitive]() { return this.id; }
  ref() { return this; } unref() { return this; } hasRef() { return true; }
}
function vClear(h: any) {
  if (h == null) return;
  if (h.__zero !== undefined) return h.cancel();
  if (h instanceof VHandle) {
    if (h.inst.timers.delete(h.id)) { h.inst.activity++; tellClock(h.inst, { op: "clear", id: h.id, origin: originALS.getStore() }); }
    return;
  }
  real.clearTimeout(h); // a real handle (set outside any DO)
}
globalThis.setTimeout = vSetTimeout(false) as any;
globalThis.setInterval = vSetTimeout(true) as any;
globalThis.clearTimeout = vClear as any;
globalThis.clearInterval = vClear as any;

// ---- frames sent per socket
function sockId(ws: WebSocket): string {
  try {
    const a = (WebSocket.prototype as any).deserializeAttachment.call(ws);
    if (a?.__pk?.id) return a.__pk.id;
  } catch {}
  return "?";
}
(WebSocket.prototype as any).send = function (this: WebSocket, data: any) {
  const inst = doALS.getStore();
  if (inst) { const s = sockId(this); inst.sent[s] = (inst.sent[s] ?? 0) + 1; inst.activity++; }
  else outsideSends++;
  return realSend.call(this, data);
};
export let outsideSends = 0;

// ---- binding calls
function wrapFetcher(inst: Inst, name: string, b: any) {
  return {
    fetch: async (input: RequestInfo, init?: RequestInit) => {
      const id = ++inst.nextCall;
      const origin = originALS.getStore();
      inst.calls.set(id, { binding: name, origin });
      inst.activity++;
      try {
        const req = new Request(input as any, init);
        req.headers.set("x-cs-do", inst.name);
        req.headers.set("x-cs-call", String(id));
        req.headers.set("x-cs-origin", JSON.stringify(origin ?? null));
        const res: Response = await b.fetch(req);
        // Count the call as outstanding until its body is read: what follows is microtasks only.
        const body = await res.arrayBuffer();
        return new Response(body, { status: res.status, headers: res.headers });
      } finally {
        inst.calls.delete(id);
        inst.activity++;
      }
    },
  };
}

// ---- async storage calls (SQLite-backed: these are the KV/alarm promise APIs)
function wrapStorage(inst: Inst, storage: any) {
  for (const m of ["get", "put", "delete", "list", "deleteAll", "getAlarm", "setAlarm", "deleteAlarm", "sync"]) {
    const orig = storage[m];
    if (typeof orig !== "function") continue;
    try {
      Object.defineProperty(storage, m, {
        configurable: true,
        value: function (...a: unknown[]) {
          inst.storageOps[m] = (inst.storageOps[m] ?? 0) + 1;
          if (m === "setAlarm" || m === "deleteAlarm") { if (inst.vAlarm) { vClear(inst.vAlarm); inst.vAlarm = null; } }
          if (m === "setAlarm" && Number(a[0]) - Date.now() < SOON && inst.alarm0 && doALS.getStore() === inst) {
            // An alarm for "now" (agents' job queue, startup recovery): a virtual timer that runs the framework's
            // alarm handler in the context that set it, instead of workerd's real alarm racing the clients' frames.
            // The real alarm is deleted, as a setAlarm replaces it.
            armVirtualAlarm(inst, Math.max(1, Number(a[0]) - Date.now()));
            inst.alarmAt = null;
            inst.storageOps.virtualAlarm = (inst.storageOps.virtualAlarm ?? 0) + 1;
            const r = storage.deleteAlarm.call(storage);
            return r;
          }
          if (m === "setAlarm") inst.alarmAt = Number(a[0]);
          if (m === "deleteAlarm") inst.alarmAt = null;
          if (m === "setAlarm") inst.notes.push(`setAlarm(now+${Number(a[0]) - Date.now()} ms)` + (Number(a[0]) - Date.now() < 1000 ? ` from ${String(new Error().stack).split("\n").slice(2, 6).map((l) => l.trim().replace(/\(file.*worker.js:/, "(")).join(" <- ")}` : ""));
          const r = orig.apply(storage, a);
          if (r && typeof r.then === "function") {
            inst.storagePending++; inst.activity++;
            return r.finally(() => { inst.storagePending--; inst.activity++; });
          }
          return r;
        },
      });
    } catch (e) {
      inst.notes.push(`cannot wrap storage.${m}: ${e}`);
    }
  }
}

// ---- writes to the chat's messages (ctx.storage.sql.exec), noted with their origin
const MESSAGE_WRITE = new RegExp(String.raw`^\s*(insert|update|delete|replace)\b[\s\S]*\b${MESSAGE_TABLE}`, "i");
function wrapSql(inst: Inst, storage: any) {
  let sql: any;
  try { sql = storage.sql; } catch (e) { inst.notes.push(`no storage.sql: ${e}`); return; }
  if (!sql) return;
  const exec = sql.exec.bind(sql);
  const proxy = new Proxy(sql, {
    get(target, prop) {
      if (prop === "exec") return (query: string, ...bindings: unknown[]) => {
        if (MESSAGE_WRITE.test(String(query))) { inst.recordWrites.push(originALS.getStore()); inst.activity++; }
        return exec(query, ...bindings);
      };
      const v = target[prop];
      return typeof v === "function" ? v.bind(target) : v;
    },
  });
  try { Object.defineProperty(storage, "sql", { value: proxy, configurable: true }); }
  catch (e) { inst.notes.push(`cannot wrap storage.sql: ${e}`); }
}

/** Alarms due sooner than this are virtual (armVirtualAlarm); later ones stay workerd's. */
const SOON = 1000;
function armVirtualAlarm(inst: Inst, delay: number) {
  inst.vAlarm = globalThis.setTimeout(() => {
    inst.vAlarm = null;
    inst.notes.push("virtual alarm delivered");
    return inst.alarm0?.({ retryCount: 0, isRetry: false });
  }, delay);
}

const realTick = () => new Promise<void>((r) => { real.setTimeout(r, 0); });

export function instrument<T extends new (ctx: any, env: any) => any>(Base: T, bindings = ["MODEL", "BACKEND"]): T {
  const Wrapped = class extends (Base as any) {
    __cs!: Inst;
    constructor(ctx: DurableObjectState, env: any) {
      const inst: Inst = {
        name: ctx.id.name ?? ctx.id.toString(), env, ctx, timers: new Map(), nextTimer: 0, zeroTimers: 0, clockPending: 0,
        calls: new Map(), nextCall: 0, storagePending: 0, storageOps: {}, sent: {}, recvd: {}, activity: 0, seq: 0,
        unattributedTimers: 0, notes: [], alarmAt: null, recordWrites: [], aborted: false, alarm0: null, vAlarm: null,
      };
      const wenv = { ...env };
      for (const k of bindings) if (env[k]) wenv[k] = wrapFetcher(inst, k, env[k]);
      inst.env = wenv;
      wrapStorage(inst, ctx.storage);
      wrapSql(inst, ctx.storage);
      doALS.run(inst, () => originALS.run({ kind: "construct" }, () => { super(ctx, wenv); }));
      this.__cs = inst;
      // agents' Lifecycle installs fetch/webSocket*/alarm as OWN properties in the
      // constructor (and skips any name already present), so wrap whatever the
      // instance has after super() returned, instead of overriding the prototype.
      const self = this as any;
      const own = (m: string, f: Function) => Object.defineProperty(self, m, { value: f, configurable: true, writable: true });
      const fetch0 = self.fetch.bind(self), wsm0 = self.webSocketMessage?.bind(self), wsc0 = self.webSocketClose?.bind(self);
      const alarm0 = self.alarm?.bind(self);
      inst.alarm0 = alarm0 ?? null;
      own("fetch", (request: Request) => {
        const url = new URL(request.url);
        if (url.pathname.startsWith("/__cs/")) return doALS.run(inst, () => originALS.exit(() => self.__control(url)));
        const origin: Origin = { kind: "fetch", path: url.pathname.split("/").slice(-1)[0], sock: url.searchParams.get("_pk") ?? undefined };
        inst.activity++;
        return doALS.run(inst, () => originALS.run(origin, () => fetch0(request)));
      });
      if (wsm0) own("webSocketMessage", (ws: WebSocket, message: string | ArrayBuffer) => {
        const sock = sockId(ws);
        const n = (inst.recvd[sock] = (inst.recvd[sock] ?? 0) + 1);
        inst.activity++;
        let type: string | undefined;
        try { type = JSON.parse(String(message)).type; } catch {}
        const p = doALS.run(inst, () => originALS.run({ kind: "frame", sock, frame: n, path: type }, () => wsm0(ws, message)));
        // ack after the framework's handler was called (it returned its promise)
        doALS.run(inst, () => ws.send(JSON.stringify({ type: "__cs_ack", n })));
        return p;
      });
      if (wsc0) own("webSocketClose", (ws: WebSocket, code: number, reason: string, wasClean: boolean) => {
        inst.activity++;
        return doALS.run(inst, () => originALS.run({ kind: "close", sock: sockId(ws) }, () => wsc0(ws, code, reason, wasClean)));
      });
      if (alarm0) own("alarm", (...a: unknown[]) => {
        inst.notes.push("REAL ALARM delivered");
        inst.activity++;
        return doALS.run(inst, () => originALS.run({ kind: "alarm" }, () => alarm0(...a)));
      });
      inst.notes.push(`wrapped: fetch${wsm0 ? " webSocketMessage" : ""}${wsc0 ? " webSocketClose" : ""}${alarm0 ? " alarm" : ""}`);
    }
    async __control(url: URL): Promise<Response> {
      const inst = this.__cs;
      const op = url.pathname.slice("/__cs/".length);
      if (op === "fire") {
        const id = Number(url.searchParams.get("id"));
        const t = inst.timers.get(id);
        if (!t) return Response.json({ fired: false, id });
        if (!t.interval) inst.timers.delete(id);
        t.fired++;
        inst.activity++;
        // run the callback in the async context it was set in (doALS + originALS)
        t.run(() => t.cb(...t.args));
        return Response.json({ fired: true, id, origin: t.origin });
      }
      if (op === "quiet") {
        // Optional settle rounds: real macrotask turns during which nothing the
        // prelude can see may happen.
        const rounds = Number(url.searchParams.get("rounds") ?? 0);
        const a0 = inst.activity;
        const key = () => `${inst.clockPending}/${inst.zeroTimers}/${inst.storagePending}/${[...inst.calls.keys()].join(",")}`;
        const k0 = key(), quietByCounters = inst.clockPending === 0 && inst.zeroTimers === 0 && inst.storagePending === 0;
        for (let i = 0; i < rounds; i++) await realTick();
        const stable = inst.activity === a0;
        // progress the prelude saw during the rounds although nothing it counts was pending: hidden work
        const hidden = rounds > 0 && !stable && quietByCounters && key() === k0;
        const idle = stable && inst.zeroTimers === 0 && inst.clockPending === 0 && inst.storagePending === 0;
        return Response.json({
          idle, stable, hidden, zeroTimers: inst.zeroTimers, clockPending: inst.clockPending, storagePending: inst.storagePending,
          pendingBindingCalls: [...inst.calls].map(([id, c]) => ({ id, binding: c.binding, origin: c.origin })),
          timers: [...inst.timers.values()].map((t) => ({ id: t.id, delay: t.delay, interval: t.interval, origin: t.origin })),
          sent: inst.sent, recvd: inst.recvd, activity: inst.activity,
          recordWrites: idle ? inst.recordWrites.splice(0) : [],
          // real alarm armed by the framework, rounded to 10 s (Date.now() is wall clock)
          alarm: inst.alarmAt === null ? null : (inst.alarmAt - Date.now() < 1000 ? "<1s" : `~${Math.round((inst.alarmAt - Date.now()) / 10000) * 10}s`),
        });
      }
      if (op === "abort") {
        // The process dies: no virtual timer of this instance may fire again, and the object is reset (its durable
        // storage stays). Done after this answer is on its way.
        inst.aborted = true;
        inst.notes.push("abort");
        inst.timers.clear();
        real.setTimeout(() => { try { inst.ctx.abort("approval-conformance: restart"); } catch (e) { /* already gone */ } }, 0);
        return Response.json({ aborted: true });
      }
      if (op === "guard") {
        // The approval guard's records (guarded wiring), in the object's own SQLite (ctx.storage.sql): the guard's
        // store calls, made by the app in Node behind the suite's gates, run here, each one statement.
        const sql = inst.ctx.storage.sql;
        sql.exec("CREATE TABLE IF NOT EXISTS approval_guard (id TEXT PRIMARY KEY, version INTEGER NOT NULL, record TEXT NOT NULL)");
        const q = url.searchParams;
        const what = q.get("op");
        // rowsWritten counts the primary key's index too (2 for an insert): > 0, never === 1.
        if (what === "insert") {
          const r = JSON.parse(q.get("record") ?? "null");
          return Response.json({ ok: sql.exec("INSERT INTO approval_guard (id, version, record) VALUES (?, ?, ?) ON CONFLICT (id) DO NOTHING", r.id, r.version, JSON.stringify(r)).rowsWritten > 0 });
        }
        if (what === "get") {
          const rows = sql.exec("SELECT record FROM approval_guard WHERE id = ?", q.get("id")).toArray() as { record: string }[];
          return Response.json({ record: rows[0] ? JSON.parse(rows[0].record) : null });
        }
        if (what === "replace") {
          const r = JSON.parse(q.get("record") ?? "null");
          const written = sql.exec("UPDATE approval_guard SET version = ?, record = ? WHERE id = ? AND version = ?", r.version, JSON.stringify(r), r.id, Number(q.get("expected"))).rowsWritten;
          return Response.json({ ok: written > 0 });
        }
        if (what === "dump") {
          const rows = sql.exec("SELECT record FROM approval_guard ORDER BY id").toArray() as { record: string }[];
          return Response.json({ records: rows.map((row) => JSON.parse(row.record)) });
        }
        return new Response("unknown guard op", { status: 404 });
      }
      if (op === "info") {
        return Response.json({
          envProbe, envNow: (() => { try { return Object.keys((workers as any).env ?? {}).sort(); } catch (e) { return String(e); } })(),
          snapshotAvailable: typeof (AsyncLocalStorage as any).snapshot === "function",
          storageOps: inst.storageOps, notes: inst.notes, outsideTimers: outsideTimers.real, outsideSends, zeroTimersSetIsolateWide: zeroSet.n,
          unattributedTimers: inst.unattributedTimers,
          storageWrapped: Object.getOwnPropertyNames(inst.ctx.storage),
        });
      }
      return new Response("unknown control op", { status: 404 });
    }
  };
  Object.defineProperty(Wrapped, "name", { value: Base.name });
  return Wrapped as unknown as T;
}

// Route /__cs/<binding>/<name>/<op> from the default handler to the DO.
export function withControl(handler: { fetch(r: Request, env: any, ctx: any): Promise<Response> }) {
  return {
    ...handler,
    async fetch(request: Request, env: any, ctx: any) {
      const url = new URL(request.url);
      const m = /^\/__cs\/([^/]+)\/([^/]+)\/([^/]+)$/.exec(url.pathname);
      if (m) {
        const ns = env[m[1]];
        const stub = ns.get(ns.idFromName(m[2]));
        return stub.fetch(`http://do/__cs/${m[3]}${url.search}`);
      }
      return handler.fetch(request, env, ctx);
    },
  };
}
