import { defineProject } from 'vitest/config';

export default defineProject({
  ssr: { resolve: { conditions: ['@approval-conformance/source'] } },
  test: {
    name: 'adapter-langgraph-server',
    include: ['src/**/*.test.ts'],
    // The server runs once per test file (its modules are singletons); explorations on a loaded 2-core machine take seconds.
    testTimeout: 120_000,
  },
});
