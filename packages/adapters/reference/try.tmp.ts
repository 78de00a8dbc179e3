import { exploreCell, SCENARIOS } from '@approval-conformance/core';
import { referenceAdapter, WIRINGS } from '@approval-conformance/adapter-reference';
for (const sc of ['double-resume','replay'] as const) for (const store of ['memory']) for (const wiring of WIRINGS.keys()) {
  const t0 = performance.now();
  const r = await exploreCell({ adapter: referenceAdapter, wiring, store, scenario: SCENARIOS.get(sc)! });
  const r2 = await exploreCell({ adapter: referenceAdapter, wiring, store, scenario: SCENARIOS.get(sc)! }, {reduce:false});
  const f = (x: typeof r) => x.verdicts.map(v => `${v.verdict}${v.counterexample ? '('+v.counterexample.steps+')' : ''}`).join(' ');
  console.log(sc, store, wiring.padEnd(22), r.schedules, r.pruned, r2.schedules, (performance.now()-t0).toFixed(0)+'ms', f(r), f(r)===f(r2) ? 'SAME' : 'DIFF '+f(r2));
}
