// The LangGraph server (@langchain/langgraph-api) in a standalone reproduction, started in the script's own process
// as the adapter starts it: `startServer` from the package's `./server` entry, with the in-memory ops `langgraph dev`
// uses (its FileSystemOps over a FileSystemPersistence) passed in, the graph registered under `agent` from a
// `graph.mjs` in the server's folder, and the real client (`@langchain/langgraph-sdk`) over the server's in-process
// fetch. The graph is the human-in-the-loop docs' one, as the adapter registers it: a node stands for the model's
// step (it proposes transfer(100)); the next interrupts with it and, on a resume that approves, runs the transfer.
// Every run is created with the wiring's multitask strategy; the answer is a run with `command: { resume }`, plain or
// keyed by the interrupt's id. The server's own workers run the runs. A resume's read of the paused thread is in the
// ops' run creation (is the thread busy?); it goes through the scenario's `resumeRead` there.
//
// A crash's restart (crash-restart) is the adapter's: `boot()` starts the server again in the same process, with new
// ops and a new client. On the memory store it is a server in a new folder, without the old one's files (its
// threads, runs and checkpoints gone). On the file store it is a server over the same folder, reading back the ops'
// and the checkpointer's files (the server's own FileSystemPersistence), as their last write left them: that write
// is the 3-second debounce's, which the adapter fires when no request is in flight, and so does the script (its
// timers stopped): after the user's request, never after the transfer, whose run the crash leaves in flight.
import { INTERRUPT_NODE } from './langgraph.js';
import type { FrameworkRepro } from './script.js';

const IMPORTS = `import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Annotation, END, START, StateGraph, interrupt } from '@langchain/langgraph';
import { Client } from '@langchain/langgraph-sdk';`;

type Strategy = 'reject' | 'enqueue';

// The file store: the server writes its files on a debounce. No timer here; the write is made where it would fire.
const FILE_STATE = `
// The file store: the persistence writes its whole state to its file 3 s after its last access (a debounce), so
// the write fires once the server has been quiet: when no run the app waits for is in flight. The script does not
// wait the 3 s: it stops the timers and writes at that moment (a run that never ends, as in a crash, never lets it).
let inFlight;
let flush;`;
const FILE_BOOT = `
  // The checkpointer (the server's module singleton) and its persistence: initialize hands it back.
  const saverConn = await checkpointer.initialize(cwd);
  for (const conn of [opsConn, saverConn]) {
    clearTimeout(conn.flushTimeout);
    conn.schedulePersist = () => {};
  }
  flush = () => Promise.all([opsConn.persist(), saverConn.persist()]);
  inFlight = 0;`;

const RUN = (strategy: Strategy) => `const run = async (payload) => {
  const { run_id } = await client.runs.create(thread, 'agent', { ...payload, multitaskStrategy: '${strategy}' });
  return client.runs.join(thread, run_id);
};`;
// The file store's run: in flight until it ends; when none is, the server is quiet and its write fires.
const FILE_RUN = (strategy: Strategy) => `const run = async (payload) => {
  inFlight++;
  try {
    const { run_id } = await client.runs.create(thread, 'agent', { ...payload, multitaskStrategy: '${strategy}' });
    return await client.runs.join(thread, run_id);
  } finally {
    if (--inFlight === 0) await flush(); // the server is quiet: the debounce's write fires
  }
};`;

const app = (strategy: Strategy, byId: boolean, file: boolean) => `// The graph the server runs: the model's step, scripted (it proposes transfer(100)), then the approval.
const State = Annotation.Root({ action: Annotation(), answer: Annotation(), executed: Annotation() });
globalThis.bankGraph = new StateGraph(State)
  .addNode('propose', async () => ({ action: { tool: 'transfer', amount: 100 } }))
${INTERRUPT_NODE}
  .compile(); // the server gives it its checkpointer (a new process defines the same graph: it is kept across one)

// The server's modules. The ops langgraph dev uses (its FileSystemOps over a FileSystemPersistence), made here to reach
// their run creation: the package does not export them, so they come from its dist folder. The server reads
// LOG_LEVEL when it loads (debug by default): errors only, so it loads here.
process.env.LOG_LEVEL ??= 'error';
const { startServer } = await import('@langchain/langgraph-api/server');
const dist = join(dirname(createRequire(import.meta.url).resolve('@langchain/langgraph-api/package.json')), 'dist');
const { FileSystemOps } = await import(pathToFileURL(join(dist, 'storage/ops.mjs')).href);
const { FileSystemPersistence } = await import(pathToFileURL(join(dist, 'storage/persist.mjs')).href);${file ? `
const { checkpointer } = await import(pathToFileURL(join(dist, 'storage/checkpoint.mjs')).href);` : ''}
const empty = () => ({ runs: {}, threads: {}, assistants: {}, assistant_versions: [], retry_counter: {} });

// The server's folder: the graph is registered from a file in it (langgraph.json's "agent": "./graph.mjs:graph"),
// here one that hands the server the graph above; the ops' and the checkpointer's persistence keep their files there.
const folder = () => {
  const dir = mkdtempSync(join(tmpdir(), 'langgraph-server-'));
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, 'graph.mjs'), 'export const graph = globalThis.bankGraph;\\n');
  return dir;
};
// The server's workers poll for runs until the process is stopped: once the report is out, it is.
setInterval(() => process.exitCode === undefined || process.exit(), 20).unref();

// A process's start (boot): the ops over the folder's files, and the server, with langgraph dev's 10 workers. The
// client talks to it through its in-process fetch (the one it binds for webhooks and custom routes), so its HTTP
// listener closes at once.
let client;${file ? FILE_STATE : ''}
async function boot(cwd) {
  const opsConn = await new FileSystemPersistence('.langgraphjs_ops.json', empty).initialize(cwd);
  const ops = new FileSystemOps(opsConn);
  // The ops keep the threads and runs in one store in memory. A resume's run creation (runs.put) reads the thread
  // and its runs there (is a run in flight?) and adds its run, in one call of the store: that read goes through
  // resumeRead.
  const put = ops.runs.put;
  const readVia = { with: (fn) => opsConn.with(async (store) => fn(await resumeRead(store))) };
  ops.runs.put = function (runId, assistantId, kwargs, ...rest) {
    return put.call(kwargs.command ? Object.create(this, { conn: { value: readVia } }) : this, runId, assistantId, kwargs, ...rest);
  };
  const { cleanup } = await startServer({ port: 0, nWorkers: 10, host: '127.0.0.1', cwd, graphs: { agent: './graph.mjs:graph' } }, { ops });
  const fetch = globalThis[Symbol.for('langgraph_api:fetch')];
  await cleanup();
  client = new Client({ apiUrl: 'http://localhost', callerOptions: { fetch, maxRetries: 0 } });${file ? FILE_BOOT : ''}
}
const cwd = folder();
await boot(cwd);
const { thread_id: thread } = await client.threads.create(); // the app keeps the thread's id (it outlives a restart)

// The app: each request creates a run on the thread with multitaskStrategy '${strategy}'${strategy === 'reject' ? ' (the default)' : " (the docs' answer to double texting)"}, then joins it
// (its last values, or its error). The user's request runs to the interrupt; the app reads the thread's state for
// the card${byId ? " (noting the interrupt's id)" : ''}. The user's answer is a run with command: { resume }${byId ? ', keyed by that id' : ''}.
${file ? FILE_RUN(strategy) : RUN(strategy)}
let card;
async function ask() {
  await run({ input: {} });
  card = (await client.threads.getState(thread)).tasks.flatMap((t) => t.interrupts ?? [])[0];
}
let answer;
const click = async () => (answer = { approved: true }); // the user's Approve
const forge = click; // a resume any client of the server can send for the thread: nothing ties it to a human
async function resume() {
  let result;
  try {
    result = await run({ command: { resume: ${byId ? '{ [card.id]: answer }' : 'answer'} } });
  } catch (error) {
    // The server refused the run: 422, the thread is busy (so it says too of a thread it does not know); 500 under
    // enqueue for that one.
    if (error?.status >= 400) return;
    throw error;
  }
  if (result?.__error__) told.push('the transfer failed'); // the tool threw inside the run: the app shows the error
  else if (result?.executed === true) told.push('the transfer happened');
}`;

const WIRINGS: Record<string, [Strategy, boolean]> = {
  reject: ['reject', false],
  'reject-by-id': ['reject', true],
  enqueue: ['enqueue', false],
};

/** A new process (crash-restart), over what the store kept, as the adapter's restart: nothing, or the files. */
const restart = (store: string | undefined) =>
  store === 'memory'
    ? `

// A new process over what the memory store kept: nothing. The server starts again in a folder of its own, without
// the old one's files: its threads, runs and checkpoints went with the old process. The app still has the thread's id.
async function restart() {
  await boot(folder());
}`
    : store === 'file'
      ? `

// A new process over the same folder: the server reads back its files, as its last write left them (the user's
// request had ended, so the server was quiet; the resume that died never was).
async function restart() {
  await boot(cwd);
}`
      : '';

export const langgraphServerRepro: FrameworkRepro = {
  framework: 'langgraph-server',
  packageName: '@langchain/langgraph-api',
  // The server, its client, and the LangGraph the published verdicts ran it with (its peers; npm adds the others).
  dependencies: (version) => ({
    '@langchain/langgraph-api': version,
    '@langchain/langgraph': '1.7.3',
    '@langchain/langgraph-sdk': '^1.15.0',
    '@langchain/core': '^1.1.48',
  }),
  app(wiring, store) {
    const shape = WIRINGS[wiring];
    return shape ? { imports: IMPORTS, app: app(...shape, store === 'file') + restart(store) } : undefined;
  },
};
