import { defineProject } from 'vitest/config';

export default defineProject({
  ssr: { resolve: { conditions: ['@approval-conformance/source'] } },
  test: {
    name: 'adapter-mastra',
    include: ['src/**/*.test.ts'],
    // Exhaustive explorations over the real SDK take seconds, not milliseconds, on a loaded 2-core machine.
    testTimeout: 120_000,
  },
});
