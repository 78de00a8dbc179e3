// Bundle the worker into one ES module for workerd: src/worker.ts alone (spike 1: spike.mjs, probe.mjs), or
// src/entry.ts, which imports the prelude first (spike 2: det.mjs, smoke2.mjs, with the CLOCK binding).
import { build } from "esbuild";
import { builtinModules } from "node:module";
export async function bundle(outfile = new URL("./dist/worker.js", import.meta.url).pathname, entry = "worker.ts") {
  const t0 = performance.now();
  await build({
    entryPoints: [new URL(`./src/${entry}`, import.meta.url).pathname],
    outfile,
    bundle: true,
    format: "esm",
    platform: "neutral",
    target: "es2022",
    conditions: ["workerd", "worker", "browser", "import"],
    mainFields: ["module", "main"],
    // bare Node builtins (e.g. "path" from mime-types via mimetext) resolve in
    // workerd under nodejs_compat (v2), so leave them to the runtime.
    external: ["cloudflare:*", "node:*", ...builtinModules],
    logLevel: "warning",
    minify: false,
    sourcemap: false,
  });
  return { outfile, ms: Math.round(performance.now() - t0) };
}
if (import.meta.url === `file://${process.argv[1]}`) console.log(await bundle());
