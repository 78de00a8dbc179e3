const core = await import('../../../packages/core/dist/index.js');
const lgs = await import('../../../packages/adapters/langgraph-server/dist/index.js');
const { exploreCell, SCENARIOS, proposeAndApprove, TRANSFER, NOTIFY } = core;
const base = SCENARIOS.get('double-resume');
const scenario = {
  ...base,
  symmetric: undefined,
  properties: ['at-most-once', 'no-resurrection', 'fresh-view', 'integrity'],
  async program(world, fakes, ctl) {
    const { approvalId } = await proposeAndApprove(world, fakes, ctl, { alternatives: [TRANSFER], followUp: NOTIFY });
    ctl.spawn('t1', () => world.resume('t1', { approvalId, approved: true }));
    ctl.spawn('t2', () => world.resume('t2', { approvalId, approved: true }));
  },
};
const adapter = await lgs.langgraphServerAdapter(await lgs.pinnedLib());
for (const wiring of process.argv.slice(2)) {
  const t = Date.now();
  const r = await exploreCell({ adapter, wiring, store: 'memory', scenario });
  console.log(wiring, 'exhausted', r.exhausted, 'schedules', r.schedules ?? r.explored ?? '', `${Date.now() - t}ms`);
  if (!r.exhausted) console.log(JSON.stringify(r, null, 1).slice(0, 1500)); for (const v of r.verdicts) console.log('  ', v.property, v.verdict, v.counterexample?.explanation ?? '');
}
process.exit(0);
