// The explorer's speed on the reference runtime: schedules per second, and the time the calibration takes
// (double-resume on all 12 wirings × both stores), with and without the reduction of commuting releases.
import { exploreCell, SCENARIOS } from '@approval-conformance/core';
import { referenceAdapter, STORES, WIRINGS } from '@approval-conformance/adapter-reference';

const scenario = SCENARIOS.get('double-resume')!;

for (const reduce of [true, false]) {
  let total = 0;
  const start = process.hrtime.bigint();
  for (const store of STORES) {
    let schedules = 0;
    const storeStart = process.hrtime.bigint();
    for (const wiring of WIRINGS.keys()) {
      const cell = await exploreCell({ adapter: referenceAdapter, wiring, store, scenario }, { reduce });
      schedules += cell.schedules + cell.pruned;
    }
    const seconds = Number(process.hrtime.bigint() - storeStart) / 1e9;
    total += schedules;
    console.log(
      `reduce=${reduce} ${store.padEnd(6)}: ${schedules} schedules in ${seconds.toFixed(2)} s, ` +
        `${Math.round(schedules / seconds)} schedules/s (counterexample replays included in the time)`,
    );
  }
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  console.log(`reduce=${reduce} calibration (12 wirings × ${STORES.length} stores): ${total} schedules, ${seconds.toFixed(2)} s`);
}
