// SPIKE 2 driver: two scripted interleavings of the two-tabs case, each run N
// times on fresh Durable Objects in ONE Miniflare; traces compared as JSON
// after replacing random ids with placeholders.
//   node det.mjs            (N=20; SPIKE_N=5 for less; SPIKE_ROUNDS=k settle rounds in the probe)
import { createHash } from "node:crypto";
import { writeFileSync } from "node:fs";
import { bundle } from "./build.mjs";
import { World, startMiniflare } from "./harness2.mjs";

const N = Number(process.env.SPIKE_N ?? 20);
const ROUNDS = Number(process.env.SPIKE_ROUNDS ?? 0);
const worlds = new Map();
let runSeq = 0;

async function drainTimers(w, label, max = 10) {
  for (let i = 0; i < max; i++) {
    const next = [...w.timers.values()].sort((a, b) => a.due - b.due || a.id - b.id)[0];
    if (!next || next.delay >= 3_600_000) return;       // leave day-long idle timers alone
    await w.fireNext();
    w.record(`${label}:fire#${next.id}`, await w.settle({ rounds: ROUNDS }));
  }
}
async function getMessages(w) {
  const r = await fetch(new URL(`/agents/chat-agent/${w.name}/get-messages`, w.url));
  const msgs = await r.json();
  w.record("get-messages", await w.settle({ rounds: ROUNDS }));
  return msgs.map((m) => ({ role: m.role, parts: m.parts.map((p) => (p.type === "tool-transfer" ? { type: p.type, state: p.state, toolCallId: p.toolCallId, output: p.output } : p.type === "text" ? { type: "text", text: p.text } : { type: p.type })) }));
}
async function opening(w) {
  const A = w.connect("A"); await A.open;
  w.record("connect A", await w.settle({ rounds: ROUNDS }));
  const B = w.connect("B"); await B.open;
  w.record("connect B", await w.settle({ rounds: ROUNDS }));
  A.chatRequest([{ id: "u1", role: "user", parts: [{ type: "text", text: "please transfer 100" }] }], "req1");
  w.record("A chat", await w.settle({ rounds: ROUNDS }));
  return { A, B, toolCallId: "call_1" };
}

const scenarios = {
  // tab A approves; the coalesce timer fires; BACKEND held; tab B approves; release; timers
  "hold-backend-then-B": async (w) => {
    const { A, B, toolCallId } = await opening(w);
    w.holdNext("BACKEND");
    A.approve(toolCallId);
    w.record("A approves", await w.settle({ rounds: ROUNDS }));
    await w.fireNext();
    w.record("fire coalesce", await w.settle({ rounds: ROUNDS }));
    if (w.heldCalls("BACKEND").length !== 1) throw new Error("BACKEND not parked after the coalesce timer");
    B.approve(toolCallId);
    w.record("B approves (BACKEND held)", await w.settle({ rounds: ROUNDS }));
    w.release("BACKEND");
    w.record("release BACKEND", await w.settle({ rounds: ROUNDS }));
    await drainTimers(w, "drain");
    return getMessages(w);
  },
  // both approve before the coalesce timer fires (they coalesce); BACKEND and the
  // post-tool MODEL call held and released one by one
  "coalesced-approvals": async (w) => {
    const { A, B, toolCallId } = await opening(w);
    w.holdNext("BACKEND"); w.holdNext("MODEL");
    A.approve(toolCallId);
    w.record("A approves", await w.settle({ rounds: ROUNDS }));
    B.approve(toolCallId);
    w.record("B approves (timer pending)", await w.settle({ rounds: ROUNDS }));
    await w.fireNext();
    w.record("fire coalesce", await w.settle({ rounds: ROUNDS }));
    w.release("BACKEND");
    w.record("release BACKEND", await w.settle({ rounds: ROUNDS }));
    w.release("MODEL");
    w.record("release MODEL", await w.settle({ rounds: ROUNDS }));
    await drainTimers(w, "drain");
    return getMessages(w);
  },
};

// ---- normalization: random ids -> placeholders in first-seen order
const ID_KEYS = new Set(["id", "messageId", "approvalId", "toolCallId", "requestId"]);
const STABLE = /^(req\d+|u\d+|call_\d+|A|B)$/;
function normalize(trace, worldName) {
  const table = new Map();
  const ph = (v) => { if (!table.has(v)) table.set(v, `<id${table.size + 1}>`); return table.get(v); };
  const walk = (x, key) => {
    if (Array.isArray(x)) return x.map((v) => walk(v, key === "messageIds" ? "id" : undefined));
    if (x && typeof x === "object") return Object.fromEntries(Object.entries(x).map(([k, v]) => [k, walk(v, k)]));
    if (typeof x === "string") {
      if ((x.startsWith("{") || x.startsWith("[")) && x.length > 1) { try { return JSON.stringify(walk(JSON.parse(x), key)); } catch {} }
      if (x === worldName) return "<world>";
      if (key === "createdAt" || key === "timestamp" || key === "updatedAt") return "<t>";
      if (key && ID_KEYS.has(key) && !STABLE.test(x)) return ph(x);
      return x.replace(/assistant_\d+_[a-z0-9]+|aitxt-[A-Za-z0-9]+/g, (m) => ph(m));
    }
    return x;
  };
  return walk(trace);
}

// ---- main
const b = await bundle(undefined, "entry.ts");
console.log("bundle", b);
const t0 = performance.now();
const { mf, url } = await startMiniflare(worlds);
console.log("miniflare ready ms", Math.round(performance.now() - t0));
const report = { rounds: ROUNDS, N };
try {
  for (const [sname, script] of Object.entries(scenarios)) {
    // one warm-up run (not counted)
    const runs = [];
    for (let i = -1; i < N; i++) {
      const w = new World(`${sname}-${process.pid}-${++runSeq}`, url);
      worlds.set(w.name, w);
      const t = performance.now();
      let final, error;
      try { final = await script(w); } catch (e) { error = String(e?.stack ?? e); }
      const ms = performance.now() - t;
      await w.close();
      const info = await w.control("info").catch((e) => ({ error: String(e) }));
      worlds.delete(w.name);
      if (i < 0) { if (error) console.log("warm-up error", error); continue; }
      const norm = normalize({ trace: w.trace, final, error }, w.name);
      const json = JSON.stringify(norm);
      runs.push({ ms, probes: w.probes, busy: w.busy, json, hash: createHash("sha256").update(json).digest("hex").slice(0, 12), info, error });
    }
    const hashes = [...new Set(runs.map((r) => r.hash))];
    const ms = runs.map((r) => r.ms).sort((a, b) => a - b);
    report[sname] = {
      runs: runs.length, distinctTraces: hashes.length, hashes: runs.map((r) => r.hash).join(" "),
      msMedian: Math.round(ms[ms.length >> 1]), msMin: Math.round(ms[0]), msMax: Math.round(ms[ms.length - 1]),
      probesPerRun: [...new Set(runs.map((r) => r.probes))].join(","),
      errors: runs.filter((r) => r.error).length,
      firstError: runs.find((r) => r.error)?.error?.slice(0, 300),
      busyTotals: runs.reduce((acc, r) => { for (const [k, v] of Object.entries(r.busy)) acc[k] = (acc[k] ?? 0) + v; return acc; }, {}),
      info: runs[0].info,
      runsWithRealAlarm: runs.filter((r) => (r.info.notes ?? []).some((n) => n.includes("REAL ALARM"))).length,
    };
    if (!process.env.SPIKE_NAIVE && ROUNDS === 0) writeFileSync(`trace-${sname}.json`, JSON.stringify(JSON.parse(runs[0].json), null, 1));
    if (hashes.length > 1) {
      const other = runs.find((r) => r.hash !== runs[0].hash);
      writeFileSync(`trace-${sname}-other.json`, JSON.stringify(JSON.parse(other.json), null, 1));
    }
    console.log(sname, JSON.stringify(report[sname], null, 1));
  }
} finally {
  await mf.dispose();
}
writeFileSync(`det-report-r${ROUNDS}${process.env.SPIKE_NAIVE ? '-naive' : ''}.json`, JSON.stringify(report, null, 1));
process.exit(0);
