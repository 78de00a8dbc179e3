// First smoke test: one chat turn, print every frame.
import { bundle } from "./build.mjs";
import { Host, startMiniflare, AgentSocket, userMessage, getMessages, toolParts } from "./harness.mjs";
import { rmSync } from "node:fs";
process.env.SPIKE_VERBOSE = "1";
rmSync(new URL("./state", import.meta.url).pathname, { recursive: true, force: true });
console.log(await bundle());
const host = new Host();
const { mf, url, startMs } = await startMiniflare(host);
console.log({ url: String(url), startMs });
try {
  const a = new AgentSocket("A", url, "probe");
  await a.open;
  await new Promise((r) => setTimeout(r, 300));
  const id = a.chatRequest([userMessage("send 100")]);
  await a.responseDone(id);
  console.log(JSON.stringify(toolParts(await getMessages(url, "probe")), null, 1));
  await a.close();
} finally { await mf.dispose(); }
