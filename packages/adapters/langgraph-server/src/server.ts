// The LangGraph server, started once per process: its modules keep their state in module-level singletons (the
// graph registry, the checkpointer, the stream manager, the loopback fetch), so one server serves every world of the
// process, one world at a time, and each world starts it over from empty state (`Server.reset`).
//
// What is the server's own code and stays so: the HTTP routes (Hono), the run creation with its multitask
// strategies, the ops (threads, runs, the inflight check, cancel), the queue's `next` and its worker, the stream of a
// run, the checkpointer. What the suite adds around it: a gate before each call of the ops and of the checkpointer
// (`ops.ts`, the world's gated saver), the drain of the queue by the turn that is waiting for its run (`drain`, in
// place of the worker loop's random sleeps), and the persistence's writes, which happen where the world says the
// debounce would fire (`Disk`) instead of on a wall-clock timer.
import { createRequire } from 'node:module';
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Module } from '@approval-conformance/adapter-langgraph';
import type { ServerLib } from './lib.js';
import { gateOps, type OpsHooks } from './ops.js';

/** The graph's id: the one `langgraph.json` would name, and the assistant the client runs. */
export const GRAPH_ID = 'agent';

/** The ops' persistence: the server's `FileSystemPersistence` over `.langgraphjs_ops.json`. */
export interface Persistence {
  data: Record<string, any> | null;
  persist(): Promise<void>;
  schedulePersist(): void;
  with<T>(fn: (store: Record<string, any>) => T | Promise<T>): Promise<T>;
  initialize(cwd: string): Promise<unknown>;
  flushTimeout?: unknown;
}

export interface Server {
  readonly lib: ServerLib;
  /**
   * A new client (the real `@langchain/langgraph-sdk` one) over the server's in-process fetch, with no socket: one
   * per world, as its requests may be left parked at a gate when the world's run ends (a crash, a pruned schedule),
   * and a client limits how many it has in flight.
   */
  readonly client: () => any;
  /** The server's ops, as it was started with them; `ops.ts` puts gates before their calls. */
  readonly ops: any;
  readonly opsConn: Persistence;
  /** The server's checkpointer (a module singleton) and its persistence. */
  readonly checkpointer: any;
  readonly checkpointerConn: Persistence;
  /** The stream manager: run locks, cancellation, and each run's stream of events. */
  readonly streams: { readers: Record<string, { log: { topic: string; data: unknown }[] }>; control: Record<string, unknown> };
  /** The registry the server runs graphs from: `graphs[GRAPH_ID]` is called for every run. */
  readonly graphs: Record<string, unknown>;
  /** The server's queue: it loops over `ops.runs.next()`, handing each run to its worker. */
  readonly queue: (ops: any) => Promise<never>;
  /** The persistence's own (de)serialization: what its file holds. */
  readonly serialize: (data: unknown) => string;
  readonly deserialize: (text: string) => Promise<any>;
  /** The ops' empty state, less the assistants the server registered at its start. */
  readonly emptyOps: () => Record<string, unknown>;
  /** The checkpointer's own class (the server's InMemorySaver): a world's gated saver extends it. */
  readonly saverClass: new (...args: any[]) => any;
  /** The world running now: its gates in front of the ops. */
  hooks: OpsHooks | undefined;
}

const started = new Map<string, Promise<Server>>();

/** The server of `lib`'s install, started on first use. */
export function serverFor(lib: ServerLib): Promise<Server> {
  let server = started.get(lib.dir);
  if (!server) {
    server = start(lib);
    started.set(lib.dir, server);
    server.catch(() => started.delete(lib.dir));
  }
  return server;
}

/** The server's `dist` folder, where its modules are (it exports only some of them). */
export function serverDist(lib: ServerLib): string {
  const manifest = createRequire(join(lib.dir, 'package.json')).resolve('@langchain/langgraph-api/package.json');
  return join(realpathSync(dirname(manifest)), 'dist');
}

async function start(lib: ServerLib): Promise<Server> {
  const dist = serverDist(lib);
  const load = (file: string): Promise<Module> => import(pathToFileURL(join(dist, file)).href);
  // The logger reads LOG_LEVEL when it loads (debug by default); it is silenced after, whatever it read.
  const logging = await load('logging.mjs');
  logging['logger'].silent = true;
  const [serverModule, queueModule, opsModule, persistModule, checkpointModule, storeModule, graphModule] = (await Promise.all(
    ['server.mjs', 'queue.mjs', 'storage/ops.mjs', 'storage/persist.mjs', 'storage/checkpoint.mjs', 'storage/store.mjs', 'graph/load.mjs'].map(load),
  )) as [Module, Module, Module, Module, Module, Module, Module];
  const { startServer } = serverModule;
  const { queue } = queueModule;
  const missing = [
    [startServer, 'startServer'],
    [queue, 'queue'],
    [opsModule['FileSystemOps'], 'FileSystemOps'],
    [opsModule['StreamManager'], 'StreamManager'],
    [persistModule['FileSystemPersistence'], 'FileSystemPersistence'],
    [checkpointModule['checkpointer'], 'checkpointer'],
    [graphModule['GRAPHS'], 'GRAPHS'],
  ].filter(([value]) => !value);
  if (missing.length) {
    throw new Error(`@langchain/langgraph-api@${lib.version} has no ${missing.map(([, name]) => name).join(', ')} where the adapter looks (${dist})`);
  }

  // A folder of the process's own: the server reads its files from it at start (none there) and the graph's module.
  const cwd = mkdtempSync(join(tmpdir(), 'approval-conformance-langgraph-server-'));
  process.once('exit', () => rmSync(cwd, { recursive: true, force: true }));
  writeFileSync(
    join(cwd, 'graph.mjs'),
    '// The graph is the world\'s: the adapter replaces this entry of the registry after the server starts.\n' +
      'export const graph = () => { throw new Error("no world is running"); };\n',
  );
  const schema = () => ({ runs: {}, threads: {}, assistants: {}, assistant_versions: [], retry_counter: {} });
  const opsConn: Persistence = await new persistModule['FileSystemPersistence']('.langgraphjs_ops.json', schema).initialize(cwd);
  const ops = new opsModule['FileSystemOps'](opsConn);
  const { cleanup } = await startServer({ port: 0, nWorkers: 0, host: '127.0.0.1', cwd, graphs: { [GRAPH_ID]: './graph.mjs:graph' } }, { ops });
  // The in-process fetch the server binds: the client needs no socket, so the HTTP server closes at once.
  const fetch = (globalThis as Record<symbol, unknown>)[Symbol.for('langgraph_api:fetch')];
  await cleanup();
  if (typeof fetch !== 'function') throw new Error(`@langchain/langgraph-api@${lib.version} binds no in-process fetch`);

  const checkpointer = checkpointModule['checkpointer'];
  const checkpointerConn: Persistence = await checkpointer.initialize(cwd);
  const storeConn: Persistence = await storeModule['store'].initialize(cwd);
  // The persistence writes its whole state 3 s after the last access, on a wall-clock timer. Here no timer is set:
  // the world writes where that timer would fire (after 3 s with no access: when no request is in flight).
  for (const conn of [opsConn, checkpointerConn, storeConn]) {
    clearTimeout(conn.flushTimeout as NodeJS.Timeout);
    conn.schedulePersist = () => {};
  }
  const assistants = { assistants: opsConn.data!['assistants'], assistant_versions: opsConn.data!['assistant_versions'] };
  const client = () => new lib.sdk['Client']({ apiUrl: 'http://localhost', callerOptions: { fetch, maxRetries: 0, maxConcurrency: Infinity } });
  const server: Server = {
    lib,
    client,
    ops,
    opsConn,
    checkpointer,
    checkpointerConn,
    streams: opsModule['StreamManager'],
    graphs: graphModule['GRAPHS'],
    queue,
    serialize: persistModule['serialize'],
    deserialize: persistModule['deserialize'],
    emptyOps: () => ({ runs: {}, threads: {}, retry_counter: {}, ...structuredClone(assistants) }),
    saverClass: Object.getPrototypeOf(checkpointer).constructor,
    hooks: undefined,
  };
  gateOps(server, () => server.hooks);
  await warmUp(server);
  return server;
}

/**
 * One episode on a graph of its own, before any world: the server loads some modules on first use (the versions it
 * reports with each run), and a load is file I/O that no gate would explain. After it, the state is emptied.
 */
async function warmUp(server: Server): Promise<void> {
  const { StateGraph, Annotation, START, END, interrupt, MemorySaver } = server.lib.langgraph;
  const State = Annotation.Root({ answer: Annotation() });
  const graph = new StateGraph(State)
    .addNode('ask', () => ({ answer: interrupt({ warmUp: true }) }))
    .addEdge(START, 'ask')
    .addEdge('ask', END)
    .compile({ checkpointer: new MemorySaver() });
  server.graphs[GRAPH_ID] = async () => graph;
  const client = server.client();
  const thread = '00000000-0000-4000-8000-00000000000f';
  await client.threads.create({ threadId: thread });
  await client.runs.create(thread, GRAPH_ID, { input: {} });
  await drain(server);
  await client.threads.getState(thread);
  await client.threads.updateState(thread, { values: { answer: 'warm' } });
  await client.runs.create(thread, GRAPH_ID, { command: { resume: 'yes' } });
  await drain(server);
  server.opsConn.data = server.emptyOps();
  server.checkpointer.storage = {};
  server.checkpointer.writes = {};
  server.streams.readers = {};
  server.streams.control = {};
}

const STOP = Symbol('drained');

/**
 * One pass of the server's own queue over the runs that are pending now, each handed to the server's own worker, as
 * a worker of a real server does after its poll's sleep; then it stops, where the real loop would sleep again.
 */
export async function drain(server: Server): Promise<void> {
  const { ops } = server;
  const runs = Object.assign(Object.create(Object.getPrototypeOf(ops.runs)), ops.runs, {
    next: async function* () {
      yield* ops.runs.next();
      throw STOP;
    },
  });
  await server.queue({ ...ops, runs }).catch((error: unknown) => {
    if (error !== STOP) throw error;
  });
}
