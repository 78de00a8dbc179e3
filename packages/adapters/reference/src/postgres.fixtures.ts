// A PostgreSQL server for the tests: the one CI started (APPROVAL_CONFORMANCE_POSTGRES), or one this machine's tests
// start once with scripts/postgres.sh and share. Tests on the postgres store are skipped only when no server can be
// had, and then they say why on stderr, never silently.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const SCRIPT = fileURLToPath(new URL('../../../../scripts/postgres.sh', import.meta.url));

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

export const POSTGRES = find();

if (!POSTGRES.url) process.stderr.write(`SKIPPING the postgres store's tests: ${POSTGRES.reason}\n`);

/** The stores a test file runs on; postgres is skipped (with the reason above) only without a server. */
export const skipStore = (store: string) => store === 'postgres' && POSTGRES.url === undefined;
