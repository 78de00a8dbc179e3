// Explore one cell up to N schedules, printing the heap every 10 s: to find a long unit's memory growth.
// usage: mem-cell.ts <mastra|langgraph|langgraph-server|reference> <wiring> <store> <scenario> <maxSchedules> [property,...]
// With properties named, only those are checked, with branch and bound (as `run --property ... --reduce ...,bound`).
import { exploreCell, SCENARIOS, type Adapter } from '@approval-conformance/core';
import { referenceAdapter } from '@approval-conformance/adapter-reference';
import { langgraphAdapter, pinnedLib as lgLib } from '../../packages/adapters/langgraph/src/index.js';
import { langgraphServerAdapter, pinnedLib as lgsLib } from '../../packages/adapters/langgraph-server/src/index.js';
import { mastraAdapter, pinnedLib as mLib } from '../../packages/adapters/mastra/src/index.js';

const [fw, wiring, store, scenario, max, properties] = process.argv.slice(2) as [string, string, string, string, string, string?];
let adapter: Adapter;
if (fw === 'langgraph-server') adapter = await langgraphServerAdapter(await lgsLib());
else if (fw === 'langgraph') adapter = await langgraphAdapter(await lgLib(1 as never));
else if (fw === 'mastra') adapter = await mastraAdapter(await mLib('1.71' as never));
else adapter = referenceAdapter;
const t0 = Date.now();
const show = () => {
  (globalThis as { gc?: () => void }).gc?.();
  const m = process.memoryUsage();
  console.log(`${Math.round((Date.now() - t0) / 1000)}s heapUsed ${Math.round(m.heapUsed / 1e6)} MB rss ${Math.round(m.rss / 1e6)} MB external ${Math.round(m.external / 1e6)} MB`);
};
const timer = setInterval(show, 10_000);
const base = SCENARIOS.get(scenario as never)!;
const only = properties?.split(',') as (typeof base.properties)[number][] | undefined;
const cell = await exploreCell(
  { adapter, wiring, store, scenario: only ? { ...base, properties: only } : base },
  { maxSchedules: Number(max), ...(only ? { reduce: { commute: true, sourceSets: true, bound: true, symmetry: true } } : {}) },
);
clearInterval(timer);
show();
console.log(cell.schedules, cell.exhausted, cell.verdicts.map((v) => `${v.property} ${v.verdict}${v.counterexample ? ` (${v.counterexample.steps})` : ''}`).join(', '));
