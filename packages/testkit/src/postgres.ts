// A PostgreSQL server for the adapters' tests: the one CI started (APPROVAL_CONFORMANCE_POSTGRES), or one this
// machine's tests start once with scripts/postgres.sh and share. Tests on the postgres store are skipped only when no
// server can be had, and then they say why on stderr, never silently.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

// The repository's script: this package is never built or published, so it always runs from packages/testkit/src.
const SCRIPT = fileURLToPath(new URL('../../../scripts/postgres.sh', import.meta.url));

function find(): { readonly url?: string; readonly reason?: string } {
  if (process.env['APPROVAL_CONFORMANCE_POSTGRES']) return { url: process.env['APPROVAL_CONFORMANCE_POSTGRES'] };
  try {
    const exports = execFileSync('bash', [SCRIPT, 'ensure'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    const url = /APPROVAL_CONFORMANCE_POSTGRES=(\S+)/.exec(exports)?.[1];
    if (!url) return { reason: `scripts/postgres.sh printed no URL: ${exports.trim()}` };
    process.env['APPROVAL_CONFORMANCE_POSTGRES'] = url;
    return { url };
  } catch (error) {
    const said = String((error as { stderr?: string }).stderr ?? error).trim();
    return { reason: `no PostgreSQL server could be started (${said}); set APPROVAL_CONFORMANCE_POSTGRES to use one` };
  }
}

let found: ReturnType<typeof find> | undefined;

/** The server, found (or started) on first use. */
export function testPostgres(): { readonly url?: string; readonly reason?: string } {
  if (found === undefined) {
    found = find();
    if (!found.url) process.stderr.write(`SKIPPING the postgres store's tests: ${found.reason}\n`);
  }
  return found;
}

/** Whether a test on `store` must be skipped: only postgres, only without a server (and the reason is printed). */
export const skipStore = (store: string) => store === 'postgres' && testPostgres().url === undefined;
