// The workspace's vitest global setup: stops, once every test has run, a PostgreSQL server the tests started
// (scripts/postgres.sh ensure), so `pnpm test` leaves nothing running. A server that was up before (one CI or an
// earlier run with APPROVAL_CONFORMANCE_KEEP_POSTGRES=1 left) is kept: the next run reuses it and starts faster.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const SCRIPT = fileURLToPath(new URL('../../../scripts/postgres.sh', import.meta.url));
const ENV = join(process.env['TMPDIR'] ?? tmpdir(), 'approval-conformance-pg.env');

/** The folder of the server the tests' env file names, if any. */
const started = () => (existsSync(ENV) ? /APPROVAL_CONFORMANCE_POSTGRES_DIR=(\S+)/.exec(readFileSync(ENV, 'utf8'))?.[1]?.replace(/^['"]|['"]$/g, '') : undefined);

export default function setup(): () => void {
  const before = started();
  return () => {
    const dir = started();
    if (!dir || dir === before || process.env['APPROVAL_CONFORMANCE_KEEP_POSTGRES']) return;
    try {
      execFileSync('bash', [SCRIPT, 'stop'], { env: { ...process.env, APPROVAL_CONFORMANCE_POSTGRES_DIR: dir }, stdio: 'ignore' });
    } finally {
      rmSync(ENV, { force: true });
    }
  };
}
