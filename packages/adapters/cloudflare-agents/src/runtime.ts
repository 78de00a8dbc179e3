// One Miniflare (one workerd) per process, started lazily and shared by every world: a world is a Durable Object of
// its own (`idFromName`). The MODEL, BACKEND and CLOCK service bindings come back to Node here and go to the world
// whose object called (the prelude names it in `x-cs-do`, or `do` in a CLOCK message).
import { AsyncLocalStorage } from 'node:async_hooks';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Miniflare, Response } from 'miniflare';
import { AGENT_CLASSES, cacheRoot, currentTree, workerBundle, writeOnce, type InstalledTree } from './bundle.js';

/**
 * Runs `fn` in the async context this module was loaded in: every fetch and WebSocket towards workerd goes through
 * it, so that undici's and ws's own timers never land on a run's virtual clock (which the turns' contexts carry).
 */
export const outside: <T>(fn: () => T) => T = AsyncLocalStorage.snapshot();

/** What a world answers for its object. */
export interface ObjectHost {
  onBinding(binding: 'MODEL' | 'BACKEND', request: Request): Promise<globalThis.Response>;
  onClock(message: ClockMessage): void;
}

export interface ClockMessage {
  readonly do: string;
  readonly seq: number;
  readonly op: 'set' | 'clear';
  readonly id: number;
  readonly delay?: number;
  readonly interval?: boolean;
  readonly origin?: unknown;
  readonly site?: string;
}

export interface Runtime {
  readonly url: URL;
  register(name: string, host: ObjectHost): void;
  unregister(name: string): void;
}

const hosts = new Map<string, ObjectHost>();
let running: Promise<{ mf: Miniflare; runtime: Runtime; persist: string }> | undefined;
/** The tree the running workerd's bundle was built from (undefined: the workspace's pinned pair). */
let runningTree: InstalledTree | undefined;

/**
 * Where a SIGKILLed worker would leave workerd running (reparented to init): on Linux with `setpriv`, workerd is
 * started through a script that asks the kernel to kill it when its parent dies (`exec`: the pid Miniflare kills on
 * dispose is workerd's). Not where the user points Miniflare at a binary of their own.
 */
function dieWithThisProcess(): string | undefined {
  if (process.platform !== 'linux' || process.env['MINIFLARE_WORKERD_PATH']) return undefined;
  let setpriv: string;
  try {
    setpriv = execFileSync('sh', ['-c', 'command -v setpriv'], { encoding: 'utf8' }).trim();
  } catch {
    return undefined;
  }
  if (!setpriv) return undefined;
  const fromMiniflare = createRequire(createRequire(import.meta.url).resolve('miniflare'));
  const workerd = fromMiniflare(fromMiniflare.resolve('workerd')) as { default?: string } | string;
  const binary = typeof workerd === 'string' ? workerd : workerd.default;
  if (!binary) return undefined;
  const script = join(cacheRoot(), 'workerd-pdeathsig.sh');
  writeOnce(script, `#!/bin/sh\nexec ${setpriv} --pdeathsig KILL -- '${binary}' "$@"\n`, 0o755);
  return script;
}

async function start(tree: InstalledTree | undefined) {
  const scriptPath = await workerBundle(tree);
  const persist = mkdtempSync(join(tmpdir(), 'cf-agents-do-'));
  const host = (name: string | null) => {
    const found = name === null ? undefined : hosts.get(name);
    if (!found) throw new Error(`a binding call from an object no world holds: ${name}`);
    return found;
  };
  const wrapper = dieWithThisProcess();
  const before = process.env['MINIFLARE_WORKERD_PATH'];
  if (wrapper) process.env['MINIFLARE_WORKERD_PATH'] = wrapper;
  try {
    const mf = new Miniflare({
      // The bundle is one ES module (its only imports are workerd's built-ins), given as the one module: with
      // `modules: true` and a scriptPath instead, Miniflare parses the 3 MB bundle with acorn on every start to find
      // its imports, about 2 s of CPU for nothing (the module it then hands workerd is the same).
      modules: [{ type: 'ESModule', path: scriptPath }],
      // Module names are relative to this folder (by default the working directory, which the bundle is not under).
      modulesRoot: dirname(scriptPath),
      compatibilityDate: '2026-04-01',
      compatibilityFlags: ['nodejs_compat'],
      durableObjects: Object.fromEntries(AGENT_CLASSES.map((name) => [name, { className: name, useSQLite: true }])),
      // The framework's console (a refused second approval warns every time) only with APPROVAL_CONFORMANCE_CF_VERBOSE.
      handleRuntimeStdio(stdout, stderr) {
        for (const stream of [stdout, stderr]) {
          if (process.env['APPROVAL_CONFORMANCE_CF_VERBOSE']) stream.pipe(stream === stdout ? process.stdout : process.stderr);
          else stream.resume();
        }
      },
      // On disk: an aborted object (World.restart) keeps its SQLite only there.
      durableObjectsPersist: persist,
      serviceBindings: {
        MODEL: (req) => host(req.headers.get('x-cs-do')).onBinding('MODEL', req as unknown as Request) as never,
        BACKEND: (req) => host(req.headers.get('x-cs-do')).onBinding('BACKEND', req as unknown as Request) as never,
        CLOCK: async (req) => {
          const message = (await req.json()) as ClockMessage;
          hosts.get(message.do)?.onClock(message);
          return new Response('ok');
        },
      },
    });
    const url = await mf.ready;
    const runtime: Runtime = {
      url,
      register: (name, h) => void hosts.set(name, h),
      unregister: (name) => void hosts.delete(name),
    };
    return { mf, runtime, persist };
  } finally {
    if (wrapper) {
      if (before === undefined) delete process.env['MINIFLARE_WORKERD_PATH'];
      else process.env['MINIFLARE_WORKERD_PATH'] = before;
    }
  }
}

/** The process's runtime, started on first use. */
export async function runtime(): Promise<Runtime> {
  const tree = currentTree();
  if (running && runningTree !== tree) {
    // Another version's workerd: stopped when no world is on it (a cell's worlds all run one version).
    if (hosts.size > 0) throw new Error(`a workerd for another version still has ${hosts.size} world(s) on it`);
    await stopRuntime();
  }
  runningTree = tree;
  running ??= outside(() => start(tree));
  const started = running;
  started.catch(() => {
    if (running === started) running = undefined;
  });
  return started.then((r) => r.runtime);
}

/** Stops the process's workerd (the next world starts another) and removes its objects' storage. */
export async function stopRuntime(): Promise<void> {
  const was = running;
  running = undefined;
  if (!was) return;
  const r = await was.catch(() => undefined);
  if (!r) return;
  await outside(() => r.mf.dispose());
  rmSync(r.persist, { recursive: true, force: true });
}

/** Binding answers are Miniflare's Response (undici's), not the global one. */
export const answer = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } }) as unknown as globalThis.Response;
