import { defineProject } from 'vitest/config';

export default defineProject({
  ssr: { resolve: { conditions: ['@approval-conformance/source'] } },
  test: {
    name: 'adapter-cloudflare-agents',
    include: ['src/**/*.test.ts'],
    // Each file shares one workerd (Miniflare) per process; explorations run real framework code in it.
    testTimeout: 180_000,
    hookTimeout: 60_000,
  },
});
