import { SCENARIOS } from '@approval-conformance/core';
import { exploreCell } from '@approval-conformance/core/explorer';
import { dbosAdapter, installedLib } from '@approval-conformance/adapter-dbos';
const lib = await installedLib(process.argv[2]!);
const adapter = dbosAdapter(lib);
const cell = await exploreCell({ adapter, wiring: process.argv[4] ?? 'recv-send', store: 'postgres', scenario: SCENARIOS.get(process.argv[3] as never)! });
console.log(cell.verdicts.map((v) => `${v.property}=${v.verdict}`).join(' '), cell.schedules);
await adapter.dispose?.();
process.exit(0);
