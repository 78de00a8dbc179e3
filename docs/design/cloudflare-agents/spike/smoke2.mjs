import { bundle } from "./build.mjs";
import { World, startMiniflare } from "./harness2.mjs";
const worlds = new Map();
console.log(await bundle(undefined, "entry.ts"));
const { mf, url } = await startMiniflare(worlds);
try {
  const w = new World("smoke-" + Date.now(), url); worlds.set(w.name, w);
  console.log("info", JSON.stringify(await w.control("info")));
  const A = w.connect("A"); await A.open;
  let q = await w.settle(); console.log("after connect", JSON.stringify(w.record("connect", q)).slice(0, 1500));
  A.chatRequest([{ id: "u1", role: "user", parts: [{ type: "text", text: "send 100" }] }], "req1");
  q = await w.settle(); console.log("after chat", JSON.stringify(w.record("chat", q)).slice(0, 3000));
  console.log("info", JSON.stringify(await w.control("info")));
} finally { await mf.dispose(); }
