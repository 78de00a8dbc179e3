import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// One run over every package: each package's own vitest.config.ts is a project.
// CI sets VITEST_JSON_REPORT to a path to get the counts as JSON as well (.ci/run prints them).
const jsonReport = process.env['VITEST_JSON_REPORT'];

export default defineConfig({
  test: {
    // Vitest's default leaves one core to its main process, which on 2 cores is one worker for 110 files: the main
    // process does little, and many files wait on processes they start, so every core gets a worker.
    maxWorkers: Math.max(2, availableParallelism()),
    projects: ['packages/*/vitest.config.ts', 'packages/adapters/*/vitest.config.ts'],
    // Stops a PostgreSQL server the tests started, once they end (APPROVAL_CONFORMANCE_KEEP_POSTGRES=1 keeps it).
    globalSetup: ['packages/testkit/src/global-setup.ts'],
    reporters: jsonReport ? ['default', 'json'] : ['default'],
    ...(jsonReport ? { outputFile: { json: jsonReport } } : {}),
  },
});
