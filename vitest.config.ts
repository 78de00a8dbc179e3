import { defineConfig } from 'vitest/config';

// One run over every package: each package's own vitest.config.ts is a project.
export default defineConfig({
  test: {
    projects: ['packages/*/vitest.config.ts', 'packages/adapters/*/vitest.config.ts'],
  },
});
