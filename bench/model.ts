// How long the design model's 12-row check takes, for 2 and 3 turns (and more if asked: `pnpm bench 2 3 4`).
// Measured here, not in a timed test: tests never depend on wall-clock time.
import { modelTable } from '@approval-conformance/core';

const turnCounts = process.argv.slice(2).map(Number);
const REPEATS = 20;

for (const turns of turnCounts.length > 0 ? turnCounts : [2, 3]) {
  modelTable(turns); // warm up the JIT
  const times: number[] = [];
  let states = 0;
  for (let i = 0; i < REPEATS; i++) {
    const start = process.hrtime.bigint();
    const table = modelTable(turns);
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
    states = table.rows.reduce((sum, row) => sum + row.statesExplored, 0);
  }
  times.sort((a, b) => a - b);
  const median = times[Math.floor(times.length / 2)]!;
  console.log(
    `${turns} turns: 12 rows, ${states} distinct states in all, median ${median.toFixed(2)} ms ` +
      `(min ${times[0]!.toFixed(2)}, max ${times[times.length - 1]!.toFixed(2)}, ${REPEATS} runs)`,
  );
}
