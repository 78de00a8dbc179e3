import { defineProject } from 'vitest/config';

export default defineProject({
  ssr: { resolve: { conditions: ['@approval-conformance/source'] } },
  test: { name: 'conformance', include: ['src/**/*.test.ts'] },
});
