// Feasibility spike: Cloudflare Agents AIChatAgent + needsApproval under
// concurrent approvals, restart persistence, and timing. Run: node spike.mjs
import { rmSync } from "node:fs";
import { bundle } from "./build.mjs";
import { Host, startMiniflare, AgentSocket, userMessage, getMessages, toolParts, texts, now } from "./harness.mjs";

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const results = {};
const report = (k, v) => { results[k] = v; console.log(`\n== ${k}\n${JSON.stringify(v, null, 1)}`); };

// Wait until the host has seen no binding traffic and no frames for `quietMs`.
async function quiesce(host, socks, quietMs = 400, maxMs = 8000) {
  const start = Date.now();
  const mark = () => host.events.length + socks.reduce((n, s) => n + s.frames.length, 0);
  let last = mark(), since = Date.now();
  while (Date.now() - start < maxMs) {
    await sleep(50);
    const m = mark();
    if (m !== last) { last = m; since = Date.now(); } else if (Date.now() - since >= quietMs) return;
  }
}

// Drive one agent to a pending approval; returns the toolCallId.
async function toPendingApproval(sock, url, name, agentPath = "chat-agent") {
  const id = sock.chatRequest([userMessage("please transfer 100")]);
  await sock.responseDone(id);
  const parts = toolParts(await getMessages(url, name, agentPath));
  const p = parts.find((x) => x.state === "approval-requested");
  if (!p) throw new Error(`no approval-requested part: ${JSON.stringify(parts)}`);
  return { requestId: id, toolCallId: p.toolCallId, approvalId: p.approval?.id };
}

async function summary(host, url, name, socks, fromEvent = 0, agentPath = "chat-agent") {
  const msgs = await getMessages(url, name, agentPath);
  return {
    backendCalls: host.backendCalls.length,
    backendToolCallIds: host.backendCalls.map((c) => c.toolCallId),
    modelCalls: host.modelCalls.length,
    toolParts: toolParts(msgs).map(({ state, toolCallId, output }) => ({ state, toolCallId, output })),
    texts: texts(msgs),
    continuationsPerSocket: Object.fromEntries(socks.map((s) => [s.label, s.continuationIds().length])),
    trace: host.events.slice(fromEvent).map((e) => `${e.t} ${e.kind}${e.n ? "#" + e.n : ""}${e.gate ? " (" + e.gate + ")" : ""}`),
  };
}

rmSync(new URL("./state", import.meta.url).pathname, { recursive: true, force: true });
const b = await bundle();
const ONLY = process.env.SPIKE_ONLY; // e.g. SPIKE_ONLY=4b to run just the restart part
if (ONLY === "4b") {
  const out = {};
  for (const agentPath of ["chat-agent", "chat-agent-no-recovery"])
    for (const phase of ["during-execute", "after-execute"]) out[`crash-${phase}:${agentPath}`] = await crashScenario(agentPath, phase);
  console.log(JSON.stringify(out, null, 1));
  process.exit(0);
}
console.log("bundle", b);

// ------------------------------------------------------------------ step 3 + timings
{
  const host = new Host();
  const { mf, url, startMs } = await startMiniflare(host);
  const name = "s3-basic";
  const a = new AgentSocket("A", url, name);
  await a.open;
  let t = performance.now();
  const { toolCallId } = await toPendingApproval(a, url, name);
  const firstTurnMs = Math.round(performance.now() - t);
  t = performance.now();
  a.approve(toolCallId);
  await a.waitFor((f) => f.type === "cf_agent_use_chat_response" && f.continuation && f.done, 10_000, "continuation done");
  const approvalTurnMs = Math.round(performance.now() - t);
  const contId = a.continuationIds()[0];
  const streamedText = a.chunks(contId).filter((c) => c.type === "text-delta").map((c) => c.delta).join("");
  // warm round trips on fresh agents (new DO each)
  const warm = [];
  for (let i = 0; i < 3; i++) {
    const n = `s3-warm-${i}`; const s = new AgentSocket("W", url, n); await s.open;
    let t1 = performance.now(); const p = await toPendingApproval(s, url, n); const chat = performance.now() - t1;
    t1 = performance.now(); s.approve(p.toolCallId);
    await s.waitFor((f) => f.type === "cf_agent_use_chat_response" && f.continuation && f.done, 10_000, "cont");
    warm.push({ chatToApprovalRequestedMs: Math.round(chat), approveToFinalMs: Math.round(performance.now() - t1) });
    await s.close();
  }
  report("step3_basic", { startMs, firstTurnMs, approvalTurnMs, streamedText, warm, ...(await summary(host, url, name, [a])) });
  await a.close();
  const td = performance.now(); await mf.dispose(); const disposeMs = Math.round(performance.now() - td);
  results.timing = { startMs, disposeMs };
}

// ------------------------------------------------------------------ step 4a: two tabs approve the same call
const concurrency = {};
async function twoTabs(label, drive) {
  const host = new Host();
  const { mf, url } = await startMiniflare(host);
  const name = `s4a-${label}`;
  const A = new AgentSocket("A", url, name), B = new AgentSocket("B", url, name);
  await Promise.all([A.open, B.open]);
  const { toolCallId } = await toPendingApproval(A, url, name);
  const from = host.events.length;
  try {
    await drive({ host, A, B, toolCallId, url, name });
    await quiesce(host, [A, B]);
    concurrency[label] = await summary(host, url, name, [A, B], from);
  } catch (e) {
    concurrency[label] = { error: String(e), ...(await summary(host, url, name, [A, B], from).catch(() => ({}))) };
  }
  await Promise.all([A.close(), B.close()]);
  await mf.dispose();
}

// (i) both approvals in the same tick, BACKEND held until both have been sent
await twoTabs("same-tick", async ({ host, A, B, toolCallId }) => {
  const g = host.holdNextBackend("tool-exec");
  A.approve(toolCallId); B.approve(toolCallId);
  await g.arrived.promise; await sleep(300); g.release();
});
// (ii) B approves while A's tool execute is parked inside BACKEND
await twoTabs("during-execute", async ({ host, A, B, toolCallId }) => {
  const g = host.holdNextBackend("tool-exec");
  A.approve(toolCallId);
  await g.arrived.promise;
  B.approve(toolCallId); await sleep(300);
  g.release();
});
// (iii) B approves while A's continuation waits on the post-tool MODEL call
await twoTabs("during-model", async ({ host, A, B, toolCallId }) => {
  const m = host.holdNextModel("post-tool-model");
  A.approve(toolCallId);
  await m.arrived.promise;
  B.approve(toolCallId); await sleep(300);
  m.release();
});
// (iv) B approves 300 ms after A's continuation has fully finished (late duplicate)
await twoTabs("after-finish", async ({ A, B, toolCallId }) => {
  A.approve(toolCallId);
  await A.waitFor((f) => f.type === "cf_agent_use_chat_response" && f.continuation && f.done, 10_000, "A cont done");
  await sleep(300);
  B.approve(toolCallId);
});
// (v) AI-SDK-native resume: both tabs resubmit the transcript with the part in
//     approval-responded (what useChat + sendAutomaticallyWhen would send), same tick.
await twoTabs("resubmit-both", async ({ host, A, B, url, name }) => {
  const msgs = await getMessages(url, name);
  const approved = msgs.map((m) => ({ ...m, parts: m.parts.map((p) => p.state === "approval-requested" ? { ...p, state: "approval-responded", approval: { ...p.approval, approved: true } } : p) }));
  const g = host.holdNextBackend("tool-exec");
  const ra = A.chatRequest(approved), rb = B.chatRequest(approved);
  await g.arrived.promise; await sleep(300); g.release();
  await Promise.all([A.responseDone(ra), B.responseDone(rb)]);
});
// (vi) A approves via cf_agent_tool_approval; B resubmits the transcript while A's tool is in BACKEND
await twoTabs("approve-vs-resubmit", async ({ host, A, B, toolCallId, url, name }) => {
  const msgs = await getMessages(url, name);
  const approved = msgs.map((m) => ({ ...m, parts: m.parts.map((p) => p.state === "approval-requested" ? { ...p, state: "approval-responded", approval: { ...p.approval, approved: true } } : p) }));
  const g = host.holdNextBackend("tool-exec");
  A.approve(toolCallId);
  await g.arrived.promise;
  const rb = B.chatRequest(approved); await sleep(300);
  g.release();
  await B.responseDone(rb);
});
// (vii) B resubmits its stale transcript (part still approval-responded) after A's run finished
await twoTabs("stale-resubmit-after-finish", async ({ A, B, toolCallId, url, name }) => {
  const msgs = await getMessages(url, name);
  const approved = msgs.map((m) => ({ ...m, parts: m.parts.map((p) => p.state === "approval-requested" ? { ...p, state: "approval-responded", approval: { ...p.approval, approved: true } } : p) }));
  A.approve(toolCallId);
  await A.waitFor((f) => f.type === "cf_agent_use_chat_response" && f.continuation && f.done, 10_000, "A cont done");
  await sleep(200);
  const rb = B.chatRequest(approved);
  await B.responseDone(rb);
});
report("step4a_concurrency", concurrency);

async function crashScenario(agentPath, phase) {
  const name = `s4b-crash-${phase}`;
  const host = new Host();
  let { mf, url } = await startMiniflare(host);
  let A = new AgentSocket("A", url, name, { agentPath }); await A.open;
  const p = await toPendingApproval(A, url, name, agentPath);
  const g = phase === "during-execute" ? host.holdNextBackend("tool-exec") : host.holdNextModel("post-tool-model");
  A.approve(p.toolCallId);
  await g.arrived.promise;
  const partsAtCrash = toolParts(await getMessages(url, name, agentPath)).map((x) => x.state);
  A.ws.terminate();
  await mf.dispose();              // kill workerd mid-turn
  g.release();                     // the Node side already counted its call
  const host2 = new Host();
  ({ mf, url } = await startMiniflare(host2));
  await sleep(1500);
  const backendAfterRestartIdle = host2.backendCalls.length;          // no request yet: alarm-driven?
  const partsOnWake = toolParts(await getMessages(url, name, agentPath)).map((x) => x.state);
  await sleep(1500);
  const backendAfterWake = host2.backendCalls.length;                 // after a plain HTTP wake
  const partsAfterWake = toolParts(await getMessages(url, name, agentPath)).map((x) => x.state);
  A = new AgentSocket("A2", url, name, { agentPath }); await A.open;
  A.approve(p.toolCallId);                                            // client replays its approval
  await quiesce(host2, [A], 600);
  const after = await summary(host2, url, name, [A], 0, agentPath);
  await A.close(); await mf.dispose();
  return {
    backendCallsBeforeCrash: host.backendCalls.length, partsAtCrash,
    backendAfterRestartIdle, partsOnWake, backendAfterWake, partsAfterWake,
    afterReplayedApproval: after,
    totalBackendExecutions: host.backendCalls.length + host2.backendCalls.length,
  };
}

// ------------------------------------------------------------------ step 4c: timings
{
  const starts = [], disposes = [];
  for (let i = 0; i < 3; i++) {
    const h = new Host();
    const { mf, startMs } = await startMiniflare(h);
    starts.push(startMs);
    const t = performance.now(); await mf.dispose(); disposes.push(Math.round(performance.now() - t));
  }
  report("step4c_timing", { bundleMs: b.ms, startMs: starts, disposeMs: disposes });
}

// ------------------------------------------------------------------ step 4b: restart on the same persist dir
{
  const out = {};
  // (1) pending approval survives restart and can be answered
  let host = new Host();
  let { mf, url } = await startMiniflare(host);
  const name = "s4b-restart";
  let A = new AgentSocket("A", url, name); await A.open;
  const { toolCallId } = await toPendingApproval(A, url, name);
  await A.close();
  let t = performance.now(); await mf.dispose(); const disposeMs = Math.round(performance.now() - t);
  host = new Host();
  t = performance.now(); ({ mf, url } = await startMiniflare(host)); const restartMs = Math.round(performance.now() - t);
  const before = toolParts(await getMessages(url, name));
  A = new AgentSocket("A2", url, name); await A.open;
  A.approve(toolCallId);
  await A.waitFor((f) => f.type === "cf_agent_use_chat_response" && f.continuation && f.done, 10_000, "cont after restart").catch((e) => e);
  await quiesce(host, [A]);
  out.pendingSurvives = { disposeMs, restartMs, partsAfterRestart: before, ...(await summary(host, url, name, [A])) };
  await A.close();

  await mf.dispose();
  // (2) workerd killed while the approved tool is parked in BACKEND (or, with
  //     phase "after-execute", while the post-tool MODEL call is parked), then
  //     restart on the same persist dir. Run for the default agent
  //     (chatRecovery = true) and one with chatRecovery = false.
  for (const agentPath of ["chat-agent", "chat-agent-no-recovery"]) {
    for (const phase of ["during-execute", "after-execute"]) {
      out[`crash-${phase}:${agentPath}`] = await crashScenario(agentPath, phase);
    }
  }
  report("step4b_restart", out);
}
console.log("\nRESULTS_JSON " + JSON.stringify(results));
process.exit(0);
