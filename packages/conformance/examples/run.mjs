import { readResults, run } from 'approval-conformance';

// The reference runtime's double-resume scenario on the in-memory store, on all 13 wirings (12 switch settings and one guarded): a few seconds.
const results = await run({ framework: 'reference', scenario: 'double-resume', store: 'memory', json: 'results.json' });
const failing = results.cells.filter((cell) => cell.verdict === 'fail');
console.log(`${results.cells.length} cells, ${failing.length} fail`);
for (const cell of failing) {
  console.log(`${cell.id}: ${cell.counterexample.steps} steps: ${cell.counterexample.explanation}`);
}

// The same file later, or on another machine: checked against the results schema before it is trusted.
const again = await readResults('results.json');
console.log(`read back ${again.cells.length} cells`);
