const line = process.argv[2];
const lib = await import(`../../../packages/adapters/mastra/pins/${line}/index.js`);
const { z } = lib.zod;
const USAGE = { inputTokens: 0, outputTokens: 0, totalTokens: 0 };
const meta = { id: 'r', modelId: 'm', timestamp: new Date(0) };
let step = 0;
const model = {
  specificationVersion: 'v2', provider: 'p', modelId: 'm', supportedUrls: {},
  async doGenerate(o) {
    const last = o.prompt.at(-1);
    const content = last.role === 'user' ? [{ type: 'tool-call', toolCallId: 'a1', toolName: 'transfer', input: '{}' }, { type: 'tool-call', toolCallId: 'a2', toolName: 'notify', input: '{}' }] : [{ type: 'text', text: 'done' }];
    return { content, finishReason: last.role === 'user' ? 'tool-calls' : 'stop', usage: USAGE, warnings: [], response: meta };
  },
  async doStream(o) {
    const last = o.prompt.at(-1);
    const ps = [{ type: 'stream-start', warnings: [] }, { type: 'response-metadata', ...meta }];
    if (last.role === 'user') {
      ps.push({ type: 'tool-call', toolCallId: 'a1', toolName: 'transfer', input: '{}' });
      ps.push({ type: 'tool-call', toolCallId: 'a2', toolName: 'notify', input: '{}' });
      ps.push({ type: 'finish', finishReason: 'tool-calls', usage: USAGE });
    } else {
      ps.push({ type: 'text-start', id: 't' }, { type: 'text-delta', id: 't', delta: 'done' }, { type: 'text-end', id: 't' }, { type: 'finish', finishReason: 'stop', usage: USAGE });
    }
    return { stream: new ReadableStream({ start: (c) => (ps.forEach((p) => c.enqueue(p)), c.close()) }), request: {}, response: { headers: {} } };
  },
};
const ran = [];
const mk = (id) => lib.tools.createTool({ id, description: id, inputSchema: z.object({}), requireApproval: true, execute: async () => (ran.push(id), `${id} done`) });
const agent = new lib.agent.Agent({ id: 'x', name: 'x', instructions: 'x', model, tools: { transfer: mk('transfer'), notify: mk('notify') } });
const mastra = new lib.mastra.Mastra({ agents: { x: agent }, storage: new lib.storage.InMemoryStore(), logger: false });
const a = mastra.getAgent('x');
const susp = (r) => { const p = r.suspendPayload?.requireToolApproval ?? r.suspendPayload; return `${r.finishReason} on ${p?.toolCallId}`; };
const mode = process.argv[3];
const r0 = await a.generate('go');
console.log(line, 'generate ->', susp(r0), 'ran', ran);
const runId = r0.runId;
const tryIt = async (label, f) => { try { const r = await f(); console.log(label, '->', susp(r), 'ran', ran, 'results', (r.toolResults??[]).map(t=>`${(t.payload??t).toolCallId}:${JSON.stringify((t.payload??t).result)}`)); } catch (e) { console.log(label, '-> threw', e.id ?? '', e.message.slice(0, 140), 'ran', ran); } };
if (mode === 'second-first') {
  await tryIt('decline a2 first', () => a.declineToolCallGenerate({ runId, toolCallId: 'a2' }));
  await tryIt('approve a1', () => a.approveToolCallGenerate({ runId, toolCallId: 'a1' }));
  await tryIt('decline a2', () => a.declineToolCallGenerate({ runId, toolCallId: 'a2' }));
} else if (mode === 'in-order') {
  await tryIt('approve a1', () => a.approveToolCallGenerate({ runId, toolCallId: 'a1' }));
  await tryIt('decline a2', () => a.declineToolCallGenerate({ runId, toolCallId: 'a2' }));
} else if (mode === 'concurrent') {
  await Promise.all([
    tryIt('approve a1', () => a.approveToolCallGenerate({ runId, toolCallId: 'a1' })),
    (async () => { await new Promise((r) => setTimeout(r, 0)); await tryIt('decline a2 (sent while a1 resumes)', () => a.declineToolCallGenerate({ runId, toolCallId: 'a2' })); })(),
  ]);
}
console.log('final ran', ran);
process.exit(0);
