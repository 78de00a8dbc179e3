import { defineProject } from 'vitest/config';

export default defineProject({
  ssr: { resolve: { conditions: ['@approval-conformance/source'] } },
  test: {
    name: 'adapter-langgraph',
    include: ['src/**/*.test.ts'],
    // Exhaustive explorations on a real SQLite file take seconds, not milliseconds, on a loaded 2-core machine.
    testTimeout: 120_000,
  },
});
