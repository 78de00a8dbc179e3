// The LangGraph server (@langchain/langgraph-api) in a standalone reproduction, started in the script's own process
// as the adapter starts it: `startServer` from the package's `./server` entry, with the in-memory ops `langgraph dev`
// uses (its FileSystemOps over a FileSystemPersistence) passed in, the graph registered under `agent` from a
// `graph.mjs` in the server's folder, and the real client (`@langchain/langgraph-sdk`) over the server's in-process
// fetch. The graph is the human-in-the-loop docs' one, as the adapter registers it: a node stands for the model's
// step (it proposes transfer(100)); the next interrupts with it and, on a resume that approves, runs the transfer.
// Every run is created with the wiring's multitask strategy; the answer is a run with `command: { resume }`, plain or
// keyed by the interrupt's id. The server's own workers run the runs. A resume's read of the paused thread is in the
// ops' run creation (is the thread busy?); it goes through the scenario's `resumeRead` there.
import type { FrameworkRepro } from './script.js';

const IMPORTS = `import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Annotation, END, START, StateGraph, interrupt } from '@langchain/langgraph';
import { Client } from '@langchain/langgraph-sdk';`;

type Strategy = 'reject' | 'enqueue';

const app = (strategy: Strategy, byId: boolean) => `// The graph the server runs: the model's step, scripted (it proposes transfer(100)), then the approval.
const State = Annotation.Root({ action: Annotation(), answer: Annotation(), executed: Annotation() });
globalThis.bankGraph = new StateGraph(State)
  .addNode('propose', async () => ({ action: { tool: 'transfer', amount: 100 } }))
  .addNode('approve', async (state) => {
    const answer = interrupt({ action: state.action });
    if (answer?.approved !== true) return { answer, executed: false };
    await backend.transfer(state.action.amount);
    return { answer, executed: true };
  })
  .addEdge(START, 'propose')
  .addEdge('propose', 'approve')
  .addEdge('approve', END)
  .compile(); // the server gives it its checkpointer

// The server's folder: the graph is registered from a file in it (langgraph.json's "agent": "./graph.mjs:graph"),
// here one that hands the server the graph above; the ops' persistence keeps its file there too.
const cwd = mkdtempSync(join(tmpdir(), 'langgraph-server-'));
process.once('exit', () => rmSync(cwd, { recursive: true, force: true }));
writeFileSync(join(cwd, 'graph.mjs'), 'export const graph = globalThis.bankGraph;\\n');

// The server logs each request (debug by default): errors only. It reads LOG_LEVEL when it loads, so it loads here.
process.env.LOG_LEVEL ??= 'error';
const { startServer } = await import('@langchain/langgraph-api/server');
// The in-memory ops startServer makes when given none (langgraph dev's), made here to reach their run creation. The
// package does not export them: they come from its dist folder.
const dist = join(dirname(createRequire(import.meta.url).resolve('@langchain/langgraph-api/package.json')), 'dist');
const { FileSystemOps } = await import(pathToFileURL(join(dist, 'storage/ops.mjs')).href);
const { FileSystemPersistence } = await import(pathToFileURL(join(dist, 'storage/persist.mjs')).href);
const empty = () => ({ runs: {}, threads: {}, assistants: {}, assistant_versions: [], retry_counter: {} });
const opsConn = await new FileSystemPersistence('.langgraphjs_ops.json', empty).initialize(cwd);
const ops = new FileSystemOps(opsConn);
// The ops keep the threads and runs in one store in memory. A resume's run creation (runs.put) reads the thread and
// its runs there (is a run in flight?) and adds its run, in one call of the store: that read goes through resumeRead.
const put = ops.runs.put;
const readVia = { with: (fn) => opsConn.with(async (store) => fn(await resumeRead(store))) };
ops.runs.put = function (runId, assistantId, kwargs, ...rest) {
  return put.call(kwargs.command ? Object.create(this, { conn: { value: readVia } }) : this, runId, assistantId, kwargs, ...rest);
};

// The server, with langgraph dev's 10 workers. The client talks to it through its in-process fetch (the one it binds
// for webhooks and custom routes), so its HTTP listener closes at once. The workers poll for runs until the process
// is stopped: once the report is out, it is.
const { cleanup } = await startServer({ port: 0, nWorkers: 10, host: '127.0.0.1', cwd, graphs: { agent: './graph.mjs:graph' } }, { ops });
const fetch = globalThis[Symbol.for('langgraph_api:fetch')];
await cleanup();
setInterval(() => process.exitCode === undefined || process.exit(), 20).unref();
const client = new Client({ apiUrl: 'http://localhost', callerOptions: { fetch, maxRetries: 0 } });
const { thread_id: thread } = await client.threads.create();

// The app: each request creates a run on the thread with multitaskStrategy '${strategy}'${strategy === 'reject' ? ' (the default)' : " (the docs' answer to double texting)"}, then joins it
// (its last values, or its error). The user's request runs to the interrupt; the app reads the thread's state for
// the card${byId ? " (noting the interrupt's id)" : ''}. The user's answer is a run with command: { resume }${byId ? ', keyed by that id' : ''}.
const run = async (payload) => {
  const { run_id } = await client.runs.create(thread, 'agent', { ...payload, multitaskStrategy: '${strategy}' });
  return client.runs.join(thread, run_id);
};
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
    if (error?.status === 422) return; // the server refused the run: the thread is busy
    throw error;
  }
  if (result?.__error__) told.push('the transfer failed'); // the tool threw inside the run: the app shows the error
  else if (result?.executed === true) told.push('the transfer happened');
}`;

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
  app(wiring) {
    if (wiring === 'reject') return { imports: IMPORTS, app: app('reject', false) };
    if (wiring === 'reject-by-id') return { imports: IMPORTS, app: app('reject', true) };
    if (wiring === 'enqueue') return { imports: IMPORTS, app: app('enqueue', false) };
    return undefined;
  },
};
