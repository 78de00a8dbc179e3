// Mastra in a standalone reproduction, over its InMemoryStore (or, for a crash, a LibSQLStore on a file), as the
// adapter wires it. The agent wirings: the `transfer` tool with `requireApproval: true`, a request's generate() ends
// suspended on the call, and the Approve request continues the run with approveToolCallGenerate({ runId, toolCallId })
// (`agent-approval`); with the human-in-the-loop docs' one-time approval bound to the exact tool arguments, a Set of
// fingerprints the agent's beforeToolCall hook consumes (`one-time-approval`). The workflow wiring: a step suspends
// with the planned transfer and the Approve request resumes it with run.resume({ step, resumeData })
// (`workflow-suspend`). A resume's read of the suspended run's snapshot goes through the scenario's `resumeRead`. Each
// process builds its storage, its agent or workflow, and Mastra in `boot()`; a crash's `restart()` boots again, over
// an empty InMemoryStore or the same LibSQL file.
import type { FrameworkRepro } from '@approval-conformance/core/kit';

/** The stores a crash-restart script is written for: what a new process finds (memory: nothing; libsql: the file). */
type Store = 'memory' | 'libsql';

/**
 * Mastra's storage, opened by each process (`boot`): an InMemoryStore, or a LibSQLStore on a file in a folder the
 * script makes (and deletes when it exits), as the adapter's libsql store. A resume's read of the snapshot goes
 * through `resumeRead`.
 */
const storage = (store: Store) => `${
  store === 'libsql'
    ? `// Mastra's storage, where a suspended run's snapshot is kept: a LibSQLStore on a file in a folder of this script's
// (deleted when it exits). Each process opens the file; what a request committed to it outlives the process.
const folder = mkdtempSync(join(tmpdir(), 'mastra-repro-'));
process.on('exit', () => rmSync(folder, { recursive: true, force: true }));`
    : "// Mastra's storage, where a suspended run's snapshot is kept: an InMemoryStore, which lives as long as its process."
}
// While a request resumes, its read of the snapshot goes through the scenario's resumeRead (the request that suspends
// the run reads it too, and must not wait).
let resuming = false;
async function openStorage() {
  const storage = ${store === 'libsql' ? "new LibSQLStore({ id: 'libsql', url: `file:${join(folder, 'mastra.db')}` })" : 'new InMemoryStore()'};
  const snapshots = storage.getStore ? await storage.getStore('workflows') : storage.stores.workflows; // 1.x, 0.x
  const loadSnapshot = snapshots.loadWorkflowSnapshot.bind(snapshots);
  snapshots.loadWorkflowSnapshot = async (args) => {
    const snapshot = await loadSnapshot(args);
    return resuming ? resumeRead(snapshot) : snapshot;
  };
  return storage;
}`;

/** The imports for the store: a temporary folder for the file and LibSQLStore, or the InMemoryStore. */
const nodeImports = (store: Store) =>
  store === 'libsql'
    ? `import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
`
    : '';
const storeImport = (store: Store) => (store === 'libsql' ? "import { LibSQLStore } from '@mastra/libsql';" : "import { InMemoryStore } from '@mastra/core/storage';");

const AGENT_IMPORTS = (store: Store) => `${nodeImports(store)}import { Agent } from '@mastra/core/agent';
import { Mastra } from '@mastra/core/mastra';
${storeImport(store)}
import { createTool } from '@mastra/core/tools';
import { z } from 'zod';`;

const ONE_TIME = `// The docs' one-time approval: the Approve request adds the fingerprint of the call the user reviewed (its tool
// name and arguments) to the process's Set, and the agent's beforeToolCall hook deletes the running call's
// fingerprint from it, blocking the call when it was not there.
const actionFingerprint = (toolName, args) => \`fingerprint-\${JSON.stringify({ toolName, args })}\`;
let approvedFingerprints;
const hooks = {
  beforeToolCall: ({ toolName, input }) => {
    if (toolName !== 'transfer') return;
    if (!approvedFingerprints.delete(actionFingerprint(toolName, input))) {
      return { proceed: false, output: \`Tool call blocked: approval did not match \${toolName} arguments.\` };
    }
  },
};

`;

const agentApp = (oneTime: boolean, store: Store) => `${storage(store)}

${oneTime ? ONE_TIME : ''}const transfer = createTool({
  id: 'transfer',
  description: 'Send money from the user account',
  inputSchema: z.object({ amount: z.number() }),
  requireApproval: true,
  async execute({ amount }) {
    await backend.transfer(amount);
    return 'transfer done';
  },
});

// A scripted model (the AI SDK's LanguageModelV2 shape): asked by the user, it calls transfer(100); once the tool
// has answered, it says it is done.
const model = {
  specificationVersion: 'v2',
  provider: 'scripted',
  modelId: 'scripted',
  supportedUrls: {},
  async doGenerate({ prompt }) {
    const usage = { inputTokens: 0, outputTokens: 0, totalTokens: 0 };
    return prompt.at(-1).role === 'user'
      ? { content: [{ type: 'tool-call', toolCallId: 'call-1', toolName: 'transfer', input: '{"amount":100}' }], finishReason: 'tool-calls', usage, warnings: [] }
      : { content: [{ type: 'text', text: 'Done.' }], finishReason: 'stop', usage, warnings: [] };
  },
};

// A process's start: its storage, ${oneTime ? 'its Set of approved fingerprints, ' : ''}the agent, and Mastra over them.
let storage;
let mastra;
async function boot() {
  storage = await openStorage();
${oneTime ? '  approvedFingerprints = new Set();\n' : ''}  const agent = new Agent({ id: 'assistant', name: 'assistant', instructions: 'Help the user.', model, tools: { transfer }${oneTime ? ', hooks' : ''} });
  mastra = new Mastra({ agents: { assistant: agent }, storage, logger: false });
}
await boot();

// The docs' generate() pattern: the user's request ends suspended on the call, and the app shows the card with the
// run id and the call id${oneTime ? ' (and the fingerprint of the call it shows)' : ''}. The Approve request continues the run with
// approveToolCallGenerate${oneTime ? ', once it has added that fingerprint to the Set' : ''}.
let card;
async function ask() {
  const result = await mastra.getAgent('assistant').generate('Send 100 from acct-1.');
  const { toolCallId${oneTime ? ', toolName, args' : ''} } = result.suspendPayload;
  card = { runId: result.runId, toolCallId${oneTime ? ', fingerprint: actionFingerprint(toolName, args)' : ''} };
}
const click = async () => {}; // the user's Approve: the client sends the Approve request for the card (resume)
const forge = click; // anyone who holds the run id can send that request, with no user
async function resume() {
  resuming = true;
${oneTime ? '  approvedFingerprints.add(card.fingerprint); // the call the user reviewed, approved for one run\n' : ''}  let result;
  try {
    result = await mastra.getAgent('assistant').approveToolCallGenerate({ runId: card.runId, toolCallId: card.toolCallId });
  } catch {
    return; // Mastra refused the resume (the run is no longer suspended): the app tells nothing of the transfer
  }
  // What the app tells the user: what the tool returned in the run${oneTime ? ' (a call the hook blocked returns its output)' : ''}.
  for (const { payload } of result.toolResults) told.push(payload.result === 'transfer done' ? 'the transfer happened' : 'the transfer failed');
}`;

const WORKFLOW_IMPORTS = (store: Store) => `${nodeImports(store)}import { Mastra } from '@mastra/core/mastra';
${storeImport(store)}
import { createStep, createWorkflow } from '@mastra/core/workflows';
import { z } from 'zod';`;

const workflowApp = (store: Store) => `${storage(store)}

// The docs' human-in-the-loop workflow: a step stands for the model's (it proposes transfer(100)); the confirm step
// suspends with it for approval and, resumed with { approved: true }, makes the transfer.
const action = z.object({ tool: z.string(), amount: z.number() });
const outcome = z.object({ ran: z.boolean() });
const plan = createStep({
  id: 'plan',
  inputSchema: z.object({}),
  outputSchema: action,
  execute: async () => ({ tool: 'transfer', amount: 100 }),
});
const confirm = createStep({
  id: 'confirm',
  inputSchema: action,
  outputSchema: outcome,
  suspendSchema: action,
  resumeSchema: z.object({ approved: z.boolean() }),
  async execute({ inputData, resumeData, suspend }) {
    if (!resumeData) {
      await suspend(inputData);
      return { ran: false };
    }
    if (!resumeData.approved) return { ran: false };
    await backend.transfer(inputData.amount);
    return { ran: true };
  },
});

// A process's start: its storage, the workflow (which caches the runs it started), and Mastra over them.
let storage;
let mastra;
async function boot() {
  storage = await openStorage();
  const approvalFlow = createWorkflow({ id: 'approvalFlow', inputSchema: z.object({}), outputSchema: outcome }).then(plan).then(confirm).commit();
  mastra = new Mastra({ workflows: { approvalFlow }, storage, logger: false });
}
await boot();

// createRun (1.x), createRunAsync (0.x).
const createRun = (options) => {
  const workflow = mastra.getWorkflow('approvalFlow');
  return workflow.createRunAsync ? workflow.createRunAsync(options) : workflow.createRun(options);
};

// The user's request starts a run, which suspends at confirm; the app shows the card with the run id. The Approve
// request resumes that run at confirm.
let runId;
async function ask() {
  const run = await createRun();
  await run.start({ inputData: {} });
  runId = run.runId;
}
const click = async () => {}; // the user's Approve: the client sends the Approve request for the card (resume)
const forge = click; // anyone who holds the run id can send that request, with no user
async function resume() {
  resuming = true;
  let result;
  try {
    const run = await createRun({ runId });
    result = await run.resume({ step: 'confirm', resumeData: { approved: true } });
  } catch {
    return; // Mastra refused the resume (the run is no longer suspended): the app tells nothing of the transfer
  }
  // What the app tells the user: what the step returned.
  told.push(result.status === 'success' && result.result?.ran === true ? 'the transfer happened' : 'the transfer failed');
}`;

/**
 * A new process (crash-restart), as the adapter's restart: Mastra holds nothing but what its storage kept, so the
 * process boots again. The InMemoryStore starts empty; the LibSQL file is opened again, once the dead process's client
 * is closed (the adapter closes it too).
 */
const restart = (store: Store | undefined) =>
  store === 'memory'
    ? `

// A new process: a new, empty InMemoryStore (the suspended run went with the old process), and Mastra over it.
async function restart() {
  await boot();
}`
    : store === 'libsql'
      ? `

// A new process: the dead one's LibSQL client is closed (1.x: close(); 0.x: its client), and Mastra starts again
// over the same file, with what was committed to it.
async function restart() {
  await (storage.close ? storage.close() : storage.client.close());
  await boot();
}`
      : '';

/** The @mastra/libsql the adapter installs beside each @mastra/core the suite has run (its results' packages). */
const LIBSQL: Record<string, string> = { '0.18.0': '0.14.3', '1.0.4': '1.0.0', '1.51.0': '1.16.0', '1.61.0': '1.21.1', '1.71.0': '1.23.1' };

export const mastraRepro: FrameworkRepro = {
  // The failing schedule has the second Approve request add its fingerprint after the first request's hook used it
  // up: the first transfer must still be running when the second request reads the snapshot. The scenario's meeting
  // holds both requests' reads before either goes on, so both add their fingerprint first, the set holds one, and
  // the script shows one transfer where the suite's schedule shows two.
  cannot: (wiring, scenario) =>
    wiring === 'one-time-approval' && scenario === 'double-resume'
      ? "its failing schedule needs the first transfer held until the second Approve request has read the snapshot (after the first request's beforeToolCall used up the fingerprint); the one meeting a reproduction has, at the resumes' reads, orders the two requests so that the fix holds."
      : undefined,
  framework: 'mastra',
  packageName: '@mastra/core',
  // zod is @mastra/core's peer dependency; the scripts declare their schemas with it. @mastra/libsql, which only the
  // libsql store's crash script imports, comes with every script (the others do not load it): the one the adapter
  // installed with that core, where the suite has run it.
  dependencies: (version) => ({ '@mastra/core': version, ...(LIBSQL[version] ? { '@mastra/libsql': LIBSQL[version] } : {}), zod: '^3.25.76' }),
  app(wiring, store) {
    // A store a crash script is written for; any other (libsql-shared: two processes over one file) has no restart.
    const kept: Store | undefined = store === 'memory' || store === 'libsql' ? store : undefined;
    const on: Store = kept ?? 'memory';
    if (wiring === 'agent-approval') return { imports: AGENT_IMPORTS(on), app: agentApp(false, on) + restart(kept) };
    if (wiring === 'one-time-approval') return { imports: AGENT_IMPORTS(on), app: agentApp(true, on) + restart(kept) };
    if (wiring === 'workflow-suspend') return { imports: WORKFLOW_IMPORTS(on), app: workflowApp(on) + restart(kept) };
    return undefined;
  },
};
