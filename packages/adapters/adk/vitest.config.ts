import { defineProject } from 'vitest/config';

export default defineProject({
  ssr: { resolve: { conditions: ['@approval-conformance/source'] } },
  test: {
    name: 'adapter-adk',
    include: ['src/**/*.test.ts'],
    // Explorations on a loaded 2-core machine take seconds.
    testTimeout: 120_000,
  },
});
