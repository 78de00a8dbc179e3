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
// overlapping-turns: the second request is a run with new input on the same thread, which the model answers with
// notify. The resume's request reaches the server only once that run has ended and the app has read its card
// (`resumeSave`). A run reads, runs and saves inside the server's worker, out of the app's reach, and a run created
// while another is in flight on the thread is refused (reject) or waits for it (enqueue): the two runs follow each
// other, and the order that fails, as in the suite's counterexample, is the new request's first. The resume's run then
// finds the thread paused on notify, and a plain resume value answers whatever the thread waits on.
//
// A crash's restart (crash-restart) is the adapter's: `boot()` starts the server again in the same process, with new
// ops and a new client. On the memory store it is a server in a new folder, without the old one's files (its
// threads, runs and checkpoints gone). On the file store it is a server over the same folder, reading back the ops'
// and the checkpointer's files (the server's own FileSystemPersistence), as their last write left them: that write
// is the 3-second debounce's, which the adapter fires when no request is in flight, and so does the script (its
// timers stopped): after the user's request, never after the transfer, whose run the crash leaves in flight.
import { INTERRUPT_NODE } from '@approval-conformance/adapter-langgraph/descriptor';
import type { FrameworkRepro } from '@approval-conformance/core/kit';

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

/** The approval node for overlapping-turns: an approved action runs as the tool it names (notify is no transfer). */
const OVERLAP_NODE = INTERRUPT_NODE.replace('    await backend.transfer(', "    if (state.action.tool === 'transfer') await backend.transfer(");
if (OVERLAP_NODE === INTERRUPT_NODE) throw new Error("langgraph-server repro: INTERRUPT_NODE no longer calls backend.transfer where OVERLAP_NODE expects it");

/** overlapping-turns' second request and what the thread holds, for the app below. */
const OVERLAP = `

// A new request in the same chat (another tab): a run with a new message on the thread, which the model answers with
// notify; the run ends at its interrupt, and the app reads the thread's state to show the card.
async function ask2() {
  await run({ input: { request: 'notify' } });
  if (!(await holds('notify'))) throw new Error('no card for notify');
  secondSaved();
}
// Whether the thread's state (its newest checkpoint) still waits on an interrupt for the tool.
async function holds(name) {
  const { tasks } = await client.threads.getState(thread);
  return tasks.some((task) => task.interrupts?.some((it) => it.value?.action?.tool === name));
}`;

const app = (strategy: Strategy, byId: boolean, file: boolean, overlap = false) => `// The graph the server runs: the model's step, scripted (it proposes transfer(100)${overlap ? ', or notify when the user asks for a\n// notice' : ''}), then the approval.
const State = Annotation.Root({ ${overlap ? 'request: Annotation(), ' : ''}action: Annotation(), answer: Annotation(), executed: Annotation() });
globalThis.bankGraph = new StateGraph(State)
${
  overlap
    ? `  .addNode('propose', async (state) => ({ action: state.request === 'notify' ? { tool: 'notify' } : { tool: 'transfer', amount: 100 } }))`
    : `  .addNode('propose', async () => ({ action: { tool: 'transfer', amount: 100 } }))`
}
${overlap ? OVERLAP_NODE : INTERRUPT_NODE}
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
  let result;${overlap ? '\n  await resumeSave(); // the resume\'s request reaches the server once the new request has saved its card' : ''}
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
}${overlap ? OVERLAP : ''}`;

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
  app(wiring, store, scenario) {
    const shape = WIRINGS[wiring];
    return shape ? { imports: IMPORTS, app: app(...shape, store === 'file', scenario === 'overlapping-turns') + restart(store) } : undefined;
  },
};
