import { defineProject } from 'vitest/config';

export default defineProject({
  ssr: { resolve: { conditions: ['@approval-conformance/source'] } },
  test: {
    name: 'adapter-reference',
    include: ['src/**/*.test.ts'],
    // A timeout here only catches a hang. In CI the tests share 2 cores with three lanes beside them, and a test that
    // takes 12 s alone takes 80 s there: a limit near that would fail on a busy machine, not on a hang.
    testTimeout: 300_000,
    hookTimeout: 300_000,
  },
});
