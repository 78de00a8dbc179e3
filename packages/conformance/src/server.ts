// The PostgreSQL server a framework with no store but PostgreSQL needs (a descriptor that says `server: 'postgres'`:
// DBOS keeps everything in its system database). With APPROVAL_CONFORMANCE_POSTGRES set (--postgres), that server;
// without it, in the suite's repository, the throwaway one its tests use (scripts/postgres.sh ensure starts one, or
// finds the one this machine's tests started). Only the workers of such a framework are given a server the runner
// started: the other frameworks' postgres stores still run only where the user gave one, as the published matrix
// leaves them out.
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { Framework } from './registry.js';

const ENV = 'APPROVAL_CONFORMANCE_POSTGRES';

/** The repository's script, when this runner runs from a clone of the suite (never from an installed package). */
function script(): string | undefined {
  const file = fileURLToPath(new URL('../../../scripts/postgres.sh', import.meta.url));
  const manifest = fileURLToPath(new URL('../../../packages/conformance/package.json', import.meta.url));
  try {
    if (!existsSync(file) || (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name !== 'approval-conformance') return undefined;
  } catch {
    return undefined;
  }
  return file;
}

/** What became of the search for a server: its URL, or why there is none. */
export type Server = { readonly url: string } | { readonly missing: string };

let found: Promise<Server> | undefined;

/** The server the user gave, or the repository's throwaway one (started once per runner). */
export function server(): Promise<Server> {
  const given = process.env[ENV];
  if (given) return Promise.resolve({ url: given });
  found ??= (async (): Promise<Server> => {
    const file = script();
    const fix = 'pass --postgres URL (or set APPROVAL_CONFORMANCE_POSTGRES)';
    // An installed CLI has no script of the suite's: say how to have a server in one command.
    if (!file) return { missing: `no PostgreSQL server is configured: ${fix}; one command starts one, docker run -d -p 5432:5432 -e POSTGRES_PASSWORD=pg postgres:17, whose URL is postgres://postgres:pg@localhost:5432/postgres` };
    try {
      const { stdout } = await promisify(execFile)('bash', [file, 'ensure'], { encoding: 'utf8' });
      const url = /APPROVAL_CONFORMANCE_POSTGRES=(\S+)/.exec(stdout)?.[1];
      if (url) return { url };
      return { missing: `scripts/postgres.sh printed no server (${stdout.trim()}): ${fix}` };
    } catch (error) {
      const said = String((error as { stderr?: string }).stderr ?? error).trim().split('\n')[0];
      return { missing: `scripts/postgres.sh could not start a PostgreSQL server (${said}): ${fix}` };
    }
  })();
  return found;
}

/** Whether a framework's every cell needs a PostgreSQL server. */
export const needsServer = (fw: Pick<Framework, 'server'>) => fw.server === 'postgres';

/**
 * The environment a worker of `fw` gets beside the runner's: the server the runner found, where the user gave none.
 * Empty for a framework that needs none, or when none could be had (its adapter then says so, and its cells read
 * error).
 */
export async function serverEnv(fw: Pick<Framework, 'server'>): Promise<Record<string, string>> {
  if (!needsServer(fw) || process.env[ENV]) return {};
  const found = await server();
  return 'url' in found ? { [ENV]: found.url } : {};
}

/** For a framework loaded in this process (replay, repro): its server, set where its adapter reads it. */
export async function provideServer(fw: Pick<Framework, 'server'>): Promise<void> {
  const env = await serverEnv(fw);
  if (env[ENV]) process.env[ENV] = env[ENV];
}
