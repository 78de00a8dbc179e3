import { readFileSync } from "node:fs";
const line = readFileSync(process.argv[2], "utf8").split("\n").find((l) => l.startsWith("RESULTS_JSON "));
const r = JSON.parse(line.slice(13));
const s3 = r.step3_basic;
console.log("step3:", JSON.stringify({ startMs: s3.startMs, firstTurnMs: s3.firstTurnMs, approvalTurnMs: s3.approvalTurnMs, warm: s3.warm, streamedText: s3.streamedText }));
for (const [k, v] of Object.entries(r.step4a_concurrency)) console.log("4a", k.padEnd(28), JSON.stringify({ backend: v.backendCalls, model: v.modelCalls, assistantTexts: v.texts?.filter((t) => t.startsWith("assistant")).length, parts: v.toolParts?.map((p) => p.state), cont: v.continuationsPerSocket, err: v.error }));
console.log("4c", JSON.stringify(r.step4c_timing));
for (const [k, v] of Object.entries(r.step4b_restart)) {
  if (k === "pendingSurvives") console.log("4b", k, JSON.stringify({ disposeMs: v.disposeMs, restartMs: v.restartMs, partsAfterRestart: v.partsAfterRestart.map((p) => p.state), backend: v.backendCalls, model: v.modelCalls, parts: v.toolParts.map((p) => p.state), texts: v.texts.length }));
  else { const a = v.afterReplayedApproval; console.log("4b", k.padEnd(44), JSON.stringify({ ...v, afterReplayedApproval: { backend: a.backendCalls, model: a.modelCalls, parts: a.toolParts.map((p) => p.state + (p.output ? ":" + JSON.stringify(p.output) : "")), assistantTexts: a.texts.filter((t) => t.startsWith("assistant")).length, trace: a.trace } })); }
}
