// Explore one cell and print what must not change: verdicts, schedules, pruned, exhausted, counterexample steps.
// usage: prof-cell.ts <langgraph|mastra|reference> <wiring> <store> <scenario> [line]
import { createHash } from 'node:crypto';
import { exploreCell, SCENARIOS, type Adapter } from '@approval-conformance/core';
import { referenceAdapter } from '@approval-conformance/adapter-reference';
import { langgraphAdapter, pinnedLib as lgLib } from '../../packages/adapters/langgraph/src/index.js';
import { mastraAdapter, pinnedLib as mLib } from '../../packages/adapters/mastra/src/index.js';

const [fw, wiring, store, scenario, line] = process.argv.slice(2) as [string, string, string, string, string?];
let adapter: Adapter;
if (fw === 'langgraph') adapter = await langgraphAdapter(await lgLib((line === '0' ? 0 : 1) as never));
else if (fw === 'mastra') adapter = await mastraAdapter(await mLib((line ?? '1.71') as never));
else adapter = referenceAdapter;
const t0 = process.hrtime.bigint();
const c0 = process.cpuUsage();
const cell = await exploreCell({ adapter, wiring, store, scenario: SCENARIOS.get(scenario as never)! });
const secs = Number(process.hrtime.bigint() - t0) / 1e9;
const v = cell.verdicts.map((p) => `${p.property}=${p.verdict}${p.counterexample ? `(steps ${p.counterexample.steps}, cx ${createHash('sha1').update(JSON.stringify(p.counterexample)).digest('hex').slice(0, 10)})` : ''}`);
console.log(JSON.stringify({ cell: `${fw}/${wiring}/${store}/${scenario}`, schedules: cell.schedules, pruned: cell.pruned, exhausted: cell.exhausted, verdicts: v, findings: cell.findings.length }));
const c = process.cpuUsage(c0);
console.error(`wall ${secs.toFixed(2)} s explore-cpu ${((c.user + c.system) / 1e6).toFixed(2)} s`);
