import { defineProject } from 'vitest/config';

export default defineProject({
  ssr: { resolve: { conditions: ['@approval-conformance/source'] } },
  test: {
    name: 'conformance',
    include: ['src/**/*.test.ts'],
    // Runs start worker processes (through tsx, from source): seconds, not milliseconds, on a loaded machine.
    testTimeout: 120_000,
  },
});
