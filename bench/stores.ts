// The time per schedule on each store (memory, SQLite, PostgreSQL), for the reference runtime and the two pinned
// LangGraph versions. By default it times the first 300 schedules of the two large scenarios: the small ones have
// 1 to 9 schedules, so their time is mostly the first schedule's warm-up, not the store.
//
//   pnpm bench:stores                          every subject, every store this machine has (about 2 min)
//   pnpm bench:stores langgraph@1.7.3 double-resume --max 1000   one subject, one scenario, more schedules
//   pnpm bench:stores langgraph@0.2.74 postgres                   one store
//   pnpm bench:stores replay tamper --max 0                       whole spaces (--max 0: no bound)
//
// PostgreSQL comes from APPROVAL_CONFORMANCE_POSTGRES, or a throwaway server scripts/postgres.sh starts.
import { exploreCell, SCENARIOS, type Adapter } from '@approval-conformance/core';
import { testPostgres } from '@approval-conformance/testkit';
import { referenceAdapter } from '@approval-conformance/adapter-reference';
import { langgraphAdapter, pinnedLib } from '@approval-conformance/adapter-langgraph';

const SUBJECTS: Record<string, { wiring: string; load: () => Promise<Adapter> }> = {
  reference: { wiring: 'cas-fresh', load: async () => referenceAdapter },
  'langgraph@1.7.3': { wiring: 'separate-node', load: async () => langgraphAdapter(await pinnedLib(1)) },
  'langgraph@0.2.74': { wiring: 'separate-node', load: async () => langgraphAdapter(await pinnedLib(0)) },
};
const LARGE = ['double-resume', 'overlapping-turns'];

const args = process.argv.slice(2);
const maxAt = args.indexOf('--max');
const maxSchedules = maxAt >= 0 ? Number(args[maxAt + 1]) : 300;
if (!Number.isInteger(maxSchedules) || maxSchedules < 0) {
  console.error(`bench:stores: --max takes a whole number of schedules (0: no bound), not ${args[maxAt + 1] ?? "nothing"}`);
  process.exit(2);
}
const subjects = args.filter((a) => a in SUBJECTS);
const scenarios = args.filter((a) => SCENARIOS.has(a as never));
const named = args.filter((a) => ['memory', 'sqlite', 'postgres'].includes(a));
const known = new Set([...subjects, ...scenarios, ...named]);
const unknown = args.filter((a, i) => !(maxAt >= 0 && (i === maxAt || i === maxAt + 1)) && !known.has(a));
if (unknown.length) {
  console.error(`bench:stores: unknown ${unknown.join(', ')}; give subjects (${Object.keys(SUBJECTS).join(', ')}), scenarios, stores (memory, sqlite, postgres) or --max N`);
  process.exit(2);
}
const stores = named.length ? named : ['memory', 'sqlite', ...(testPostgres().url ? ['postgres'] : [])];

console.log(`${'subject'.padEnd(18)} ${'scenario'.padEnd(20)} ${stores.map((s) => s.padStart(16)).join('')}   (schedules, ms/schedule)`);
for (const name of subjects.length ? subjects : Object.keys(SUBJECTS)) {
  const { wiring, load } = SUBJECTS[name]!;
  const adapter = await load();
  for (const id of scenarios.length ? scenarios : LARGE) {
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
