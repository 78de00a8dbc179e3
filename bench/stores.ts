// The time per schedule on each store (memory, SQLite, PostgreSQL), for the reference runtime and the two pinned
// LangGraph versions, on the scenarios whose spaces are small enough to explore in a minute or two.
//
//   pnpm bench:stores                          every subject, every store this machine has
//   pnpm bench:stores langgraph@1.7.3 double-resume --max 500   the first 500 schedules of a larger space
//   pnpm bench:stores langgraph@0.2.74 postgres                   one store
//
// PostgreSQL comes from APPROVAL_CONFORMANCE_POSTGRES, or a throwaway server scripts/postgres.sh starts.
import { exploreCell, SCENARIOS, testPostgres, type Adapter } from '@approval-conformance/core';
import { referenceAdapter } from '@approval-conformance/adapter-reference';
import { langgraphAdapter, pinnedLib } from '@approval-conformance/adapter-langgraph';

const SUBJECTS: Record<string, { wiring: string; load: () => Promise<Adapter> }> = {
  reference: { wiring: 'cas-fresh', load: async () => referenceAdapter },
  'langgraph@1.7.3': { wiring: 'separate-node', load: async () => langgraphAdapter(await pinnedLib(1)) },
  'langgraph@0.2.74': { wiring: 'separate-node', load: async () => langgraphAdapter(await pinnedLib(0)) },
};
const SMALL = ['replay', 're-proposal', 'error-after-effect', 'crash-restart', 'tamper'];

const args = process.argv.slice(2);
const maxAt = args.indexOf('--max');
const maxSchedules = maxAt >= 0 ? Number(args[maxAt + 1]) : undefined;
const subjects = args.filter((a) => a in SUBJECTS);
const scenarios = args.filter((a) => SCENARIOS.has(a as never));
const named = args.filter((a) => ['memory', 'sqlite', 'postgres'].includes(a));
const stores = named.length ? named : ['memory', 'sqlite', ...(testPostgres().url ? ['postgres'] : [])];

console.log(`${'subject'.padEnd(18)} ${'scenario'.padEnd(20)} ${stores.map((s) => s.padStart(16)).join('')}   (schedules, ms/schedule)`);
for (const name of subjects.length ? subjects : Object.keys(SUBJECTS)) {
  const { wiring, load } = SUBJECTS[name]!;
  const adapter = await load();
  for (const id of scenarios.length ? scenarios : SMALL) {
    const scenario = SCENARIOS.get(id as never)!;
    const row: string[] = [];
    for (const store of stores) {
      if (!adapter.applicability(id, wiring, store).applicable) {
        row.push('n/a'.padStart(16));
        continue;
      }
      const start = process.hrtime.bigint();
      const cell = await exploreCell({ adapter, wiring, store, scenario }, maxSchedules ? { maxSchedules } : {});
      const ms = Number(process.hrtime.bigint() - start) / 1e6;
      const schedules = cell.schedules + cell.pruned;
      row.push(`${schedules} × ${(ms / schedules).toFixed(1)}`.padStart(16));
    }
    console.log(`${name.padEnd(18)} ${id.padEnd(20)} ${row.join('')}`);
  }
}
