import { defineProject } from 'vitest/config';

export default defineProject({
  ssr: { resolve: { conditions: ['@approval-conformance/source'] } },
  test: {
    name: 'guard',
    include: ['src/**/*.test.ts'],
    testTimeout: 60_000,
  },
});
