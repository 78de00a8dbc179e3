// What the check of contents costs: every unit of each pinned subject, explored with the world's state read around
// every release (`checkContents`, the default) and without, alternately, in one process. The other checks of
// declarations (events, reported calls) and the attribution of work cost next to nothing and are always on. Mastra's
// in-memory worlds are read whatever the setting (their store changes in place), so they are left out.
//
//   pnpm bench:contents                  reference, ai@7.0.185, openai-agents@0.20.0, langgraph@1.7.3 (about 4 min)
//   pnpm bench:contents langgraph        one subject
import { exploreCell, SCENARIOS, type Adapter } from '@approval-conformance/core';
import { referenceAdapter } from '@approval-conformance/adapter-reference';
import { langgraphAdapter, pinnedLib as langgraphLib } from '@approval-conformance/adapter-langgraph';
import { aiSdkAdapter, pinnedLib as aiLib } from '@approval-conformance/adapter-ai-sdk';
import { openaiAgentsAdapter, pinnedLib as agentsLib } from '@approval-conformance/adapter-openai-agents';

const SUBJECTS: Record<string, () => Promise<Adapter>> = {
  reference: async () => referenceAdapter,
  ai: async () => aiSdkAdapter(await aiLib(7)),
  'openai-agents': async () => openaiAgentsAdapter(await agentsLib('0.20')),
  langgraph: async () => langgraphAdapter(await langgraphLib(1)),
};

const asked = process.argv.slice(2);
const unknown = asked.filter((a) => !(a in SUBJECTS));
if (unknown.length > 0) {
  console.error(`bench:contents: unknown ${unknown.join(', ')}; give subjects: ${Object.keys(SUBJECTS).join(', ')}`);
  process.exit(2);
}

const seconds = (start: bigint) => Number(process.hrtime.bigint() - start) / 1e9;
let totals = { on: 0, off: 0 };
for (const name of asked.length > 0 ? asked : Object.keys(SUBJECTS)) {
  const adapter = await SUBJECTS[name]!();
  const time = { on: 0, off: 0 };
  let schedules = 0;
  for (const wiring of adapter.wirings.map((w) => w.id)) {
    for (const store of adapter.stores.filter((s) => s !== 'postgres')) {
      for (const scenario of SCENARIOS.values()) {
        if (!adapter.applicability(scenario.id, wiring, store).applicable || (scenario.guardedOnly && !wiring.startsWith('guarded-'))) continue;
        // Alternately, so that a busy moment of the machine falls on both.
        for (const check of [true, false]) {
          const start = process.hrtime.bigint();
          const cell = await exploreCell({ adapter, wiring, store, scenario }, { checkContents: check });
          time[check ? 'on' : 'off'] += seconds(start);
          if (check) schedules += cell.schedules + cell.pruned;
        }
      }
    }
  }
  totals = { on: totals.on + time.on, off: totals.off + time.off };
  console.log(`${name.padEnd(14)} ${String(schedules).padStart(6)} schedules: ${time.on.toFixed(1)} s checking contents, ${time.off.toFixed(1)} s not (${((time.on / time.off - 1) * 100).toFixed(1)}% more)`);
}
console.log(`${'all'.padEnd(14)} ${totals.on.toFixed(1)} s against ${totals.off.toFixed(1)} s: ${((totals.on / totals.off - 1) * 100).toFixed(1)}% more`);
