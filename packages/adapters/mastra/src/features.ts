// What an installed Mastra can do, found by trying it: an agent whose model calls a tool that needs approval, run
// until it suspends and continued with `approveToolCallGenerate` (and once more, refused; and declined), and a
// workflow whose step suspends and is resumed, each over an InMemoryStore and a LibSQL file. Nothing here reads a
// version number. The probe also loads what Mastra imports lazily on first use (a dynamic import is module
// loading, which the scheduler cannot wait for), so that no explored world is the first to.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { MastraLib } from './lib.js';

export interface Features {
  readonly agentApproval: boolean;
  readonly agentProblem?: string;
  readonly workflowSuspend: boolean;
  readonly workflowProblem?: string;
  /** An agent's `hooks.beforeToolCall` runs before an approved call and can block it (`proceed: false`). */
  readonly toolHooks: boolean;
  readonly toolHooksProblem?: string;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;

const USAGE = { inputTokens: 0, outputTokens: 0, totalTokens: 0 };

/** A LanguageModelV2 that calls `probe` once, then says it is done. */
function probeModel() {
  const parts = (prompt: Any[]): Any[] =>
    prompt.at(-1)?.role === 'user'
      ? [{ type: 'tool-call', toolCallId: 'probe-1', toolName: 'probe', input: '{}' }, { type: 'finish', finishReason: 'tool-calls', usage: USAGE }]
      : [{ type: 'text-start', id: 't' }, { type: 'text-delta', id: 't', delta: 'ok' }, { type: 'text-end', id: 't' }, { type: 'finish', finishReason: 'stop', usage: USAGE }];
  const meta = { id: 'probe', modelId: 'probe', timestamp: new Date(0) };
  return {
    specificationVersion: 'v2',
    provider: 'probe',
    modelId: 'probe',
    supportedUrls: {},
    async doGenerate(options: Any) {
      const ps = parts(options.prompt);
      const content = ps.filter((p) => p.type === 'tool-call' || p.type === 'text-delta').map((p) => (p.type === 'text-delta' ? { type: 'text', text: p.delta } : p));
      return { content, finishReason: ps.at(-1).finishReason, usage: USAGE, warnings: [], response: meta };
    },
    async doStream(options: Any) {
      const ps = [{ type: 'stream-start', warnings: [] }, { type: 'response-metadata', ...meta }, ...parts(options.prompt)];
      return { stream: new ReadableStream({ start: (c) => (ps.forEach((p) => c.enqueue(p)), c.close()) }), request: {}, response: { headers: {} } };
    },
  };
}

async function probeAgent(lib: MastraLib, storage: Any): Promise<string | undefined> {
  const { z } = lib.zod;
  let ran = 0;
  const probe = lib.tools['createTool']({ id: 'probe', description: 'probe', inputSchema: z.object({}), requireApproval: true, execute: async () => `ran ${++ran}` });
  const agent = new lib.agent['Agent']({ id: 'probe', name: 'probe', instructions: 'probe', model: probeModel(), tools: { probe } });
  const mastra = new lib.mastra['Mastra']({ agents: { probe: agent }, storage, logger: false });
  const a = mastra.getAgent('probe');
  if (typeof a.approveToolCallGenerate !== 'function' || typeof a.declineToolCallGenerate !== 'function') {
    return typeof a.approveToolCall === 'function'
      ? 'it approves tool calls only on a stream (approveToolCall), which this adapter does not drive'
      : 'no requireApproval tool approvals';
  }
  const first = await a.generate('probe');
  const call = first.suspendPayload?.requireToolApproval ?? first.suspendPayload;
  if (first.finishReason !== 'suspended' || ran !== 0 || call?.toolCallId !== 'probe-1') return 'requireApproval did not suspend generate() before the tool ran';
  await a.approveToolCallGenerate({ runId: first.runId, toolCallId: 'probe-1' });
  if ((ran as number) !== 1) return 'approveToolCallGenerate did not run the approved tool';
  await a.approveToolCallGenerate({ runId: first.runId, toolCallId: 'probe-1' }).catch(() => undefined);
  const second = await a.generate('probe');
  await a.declineToolCallGenerate({ runId: second.runId, toolCallId: 'probe-1' });
  return undefined;
}

/** An agent-level `beforeToolCall` hook that blocks the approved call: the tool must not run, the hook must. */
async function probeToolHooks(lib: MastraLib, storage: Any): Promise<string | undefined> {
  const { z } = lib.zod;
  let ran = 0;
  let hooked = 0;
  const probe = lib.tools['createTool']({ id: 'probe', description: 'probe', inputSchema: z.object({}), requireApproval: true, execute: async () => `ran ${++ran}` });
  const beforeToolCall = () => (hooked++, { proceed: false, output: 'blocked' });
  const agent = new lib.agent['Agent']({ id: 'probe', name: 'probe', instructions: 'probe', model: probeModel(), tools: { probe }, hooks: { beforeToolCall } });
  const mastra = new lib.mastra['Mastra']({ agents: { probe: agent }, storage, logger: false });
  const a = mastra.getAgent('probe');
  if (typeof a.approveToolCallGenerate !== 'function') return 'no approveToolCallGenerate';
  const first = await a.generate('probe');
  await a.approveToolCallGenerate({ runId: first.runId, toolCallId: 'probe-1' });
  if (hooked === 0) return 'the agent never called its beforeToolCall hook';
  if (ran !== 0) return 'the tool ran although its beforeToolCall hook said proceed: false';
  return undefined;
}

async function probeWorkflow(lib: MastraLib, storage: Any): Promise<string | undefined> {
  const { createWorkflow, createStep } = lib.workflows;
  if (typeof createWorkflow !== 'function' || typeof createStep !== 'function') return 'no createWorkflow/createStep';
  const { z } = lib.zod;
  let ran = 0;
  const step = createStep({
    id: 'step',
    inputSchema: z.object({}),
    outputSchema: z.object({}),
    resumeSchema: z.object({ approved: z.boolean() }),
    execute: async ({ resumeData, suspend }: Any) => (resumeData ? (ran++, {}) : (await suspend({}), {})),
  });
  const workflow = createWorkflow({ id: 'probe', inputSchema: z.object({}), outputSchema: z.object({}) }).then(step).commit();
  const mastra = new lib.mastra['Mastra']({ workflows: { probe: workflow }, storage, logger: false });
  const w = mastra.getWorkflow('probe');
  const create = (runId?: string) => (typeof w.createRunAsync === 'function' ? w.createRunAsync(runId ? { runId } : {}) : w.createRun(runId ? { runId } : {}));
  const run = await create();
  const started = await run.start({ inputData: {} });
  if (started.status !== 'suspended' || ran !== 0) return 'a step that calls suspend() did not suspend the run';
  const again = await create(run.runId);
  await again.resume({ step: 'step', resumeData: { approved: true } });
  if ((ran as number) !== 1) return 'run.resume() did not resume the suspended step';
  await again.resume({ step: 'step', resumeData: { approved: true } }).catch(() => undefined);
  return undefined;
}

export async function detectFeatures(lib: MastraLib): Promise<Features> {
  const dir = await mkdtemp(join(tmpdir(), 'approval-conformance-mastra-probe-'));
  const attempt = async (probe: (lib: MastraLib, storage: Any) => Promise<string | undefined>) => {
    try {
      for (const storage of [new lib.storage['InMemoryStore'](), new lib.libsql['LibSQLStore']({ id: 'libsql', url: `file:${join(dir, `${probe.name}.db`)}` })]) {
        const problem = await probe(lib, storage);
        if (problem) return problem;
      }
      return undefined;
    } catch (error) {
      return (error as Error).message;
    }
  };
  try {
    const agentProblem = await attempt(probeAgent);
    const workflowProblem = await attempt(probeWorkflow);
    const toolHooksProblem = agentProblem ?? (await attempt(probeToolHooks));
    return {
      agentApproval: agentProblem === undefined,
      ...(agentProblem ? { agentProblem } : {}),
      workflowSuspend: workflowProblem === undefined,
      ...(workflowProblem ? { workflowProblem } : {}),
      toolHooks: toolHooksProblem === undefined,
      ...(toolHooksProblem ? { toolHooksProblem } : {}),
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
