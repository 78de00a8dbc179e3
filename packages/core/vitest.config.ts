import { defineProject } from 'vitest/config';
import { limits } from '../../vitest.limits.js';

export default defineProject({
  ssr: { resolve: { conditions: ['@approval-conformance/source'] } },
  test: {
    name: 'core',
    include: ['src/**/*.test.ts'],
    // The core's tests share no state a file leaves behind (no framework, no process-wide fake), and each file spent
    // more on importing the core again than on its tests: one import per worker takes a third off the project's CPU
    // (69 s to 43 s on 2 cores).
    isolate: false,
    ...limits,
  },
});
