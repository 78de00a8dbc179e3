import { defineProject } from 'vitest/config';
import { limits } from '../../../vitest.limits.js';

export default defineProject({
  ssr: { resolve: { conditions: ['@approval-conformance/source'] } },
  test: {
    name: 'adapter-dbos',
    include: ['src/**/*.test.ts'],
    ...limits,
  },
});
