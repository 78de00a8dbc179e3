// What an installed OpenAI Agents JS can do, found by trying it: an agent whose model calls a tool that needs
// approval, run to its interruption, approved, serialized, restored and resumed. Nothing here reads a version number.
import type { AgentsLib } from './lib.js';

export interface Features {
  /** `tool({ needsApproval })` interrupts the run, `state.approve`, `toString` and `RunState.fromString` round-trip. */
  readonly runState: boolean;
  /** The serialized state binds each approval to its call's arguments (`approvalInvocations`, 0.15+). */
  readonly approvalBinding: boolean;
  /** `run(agent, state, { stream: true })` resumes a restored state. */
  readonly streaming: boolean;
  /** `@openai/agents/testing` has the ScriptedModel the adapter's model is built on (0.16+). */
  readonly scriptedModel: boolean;
  /** Why the probe failed, when `runState` is false. */
  readonly problem?: string;
}

const CALL = { type: 'function_call', callId: 'probe-1', name: 'probe', arguments: '{}', status: 'completed' };
const DONE = { type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'ok' }] };

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;

function probeModel(lib: AgentsLib) {
  const { Usage } = lib.agents;
  const output = (input: unknown) =>
    Array.isArray(input) && input.some((i: Any) => i?.type === 'function_call_result') ? [DONE] : [CALL];
  return {
    async getResponse(request: Any) {
      return { usage: new Usage(), output: output(request.input), responseId: 'probe' };
    },
    async *getStreamedResponse(request: Any) {
      yield { type: 'response_started' };
      yield {
        type: 'response_done',
        response: { id: 'probe', usage: { requests: 1, inputTokens: 0, outputTokens: 0, totalTokens: 0 }, output: output(request.input) },
      };
    },
  };
}

export async function detectFeatures(lib: AgentsLib): Promise<Features> {
  const { Agent, RunState, run, tool } = lib.agents;
  const scriptedModel = typeof lib.testing?.['ScriptedModel'] === 'function';
  let ran: number = 0;
  // The adapter's tools name the approval they run under by the call the SDK says it is running (`details.toolCall`).
  let toldCall = true;
  const agent = new Agent({
    name: 'probe',
    instructions: 'probe',
    model: probeModel(lib),
    tools: [
      tool({
        name: 'probe',
        description: 'probe',
        parameters: { type: 'object', properties: {}, required: [], additionalProperties: false },
        strict: false,
        needsApproval: true,
        execute: async (_input: unknown, _context: unknown, details: Any) => {
          if (details?.toolCall?.callId === undefined && details?.toolCall?.call_id === undefined) toldCall = false;
          return `ran ${++ran}`;
        },
      }),
    ],
  });
  try {
    const first: Any = await run(agent, 'probe');
    const item = first.interruptions?.[0];
    if (!item || ran !== 0) return { runState: false, approvalBinding: false, streaming: false, scriptedModel, problem: 'needsApproval did not interrupt the run' };
    // The app's flow: the paused state is stored; the click restores it, approves its interruption and stores it
    // again; the resume restores that and runs it.
    const paused = await RunState.fromString(agent, first.state.toString());
    const pending: Any[] = typeof paused.getInterruptions === 'function' ? paused.getInterruptions() : [];
    const approving = pending.find((i: Any) => i?.rawItem?.callId === item.rawItem?.callId);
    if (!approving) return { runState: false, approvalBinding: false, streaming: false, scriptedModel, problem: 'a restored state lists no interruption to approve' };
    paused.approve(approving);
    const saved: string = paused.toString();
    const restored = await RunState.fromString(agent, saved);
    const done: Any = await run(agent, restored);
    if ((ran as number) !== 1 || done.interruptions?.length) {
      return {
        runState: false,
        approvalBinding: false,
        streaming: false,
        scriptedModel,
        problem: 'an approval given on a restored state and stored does not run the tool when the state is restored and run',
      };
    }
    if (!toldCall) {
      return {
        runState: false,
        approvalBinding: false,
        streaming: false,
        scriptedModel,
        problem: "a tool's execute is not told which call it runs (no details.toolCall), so an effect cannot be tied to its approval",
      };
    }
    let streaming = false;
    try {
      const again = await RunState.fromString(agent, saved);
      const streamed: Any = await run(agent, again, { stream: true });
      for await (const _ of streamed) void _;
      await streamed.completed;
      streaming = (ran as number) === 2;
    } catch {
      streaming = false;
    }
    return { runState: true, approvalBinding: /"approvalInvocations"/.test(saved), streaming, scriptedModel };
  } catch (error) {
    return { runState: false, approvalBinding: false, streaming: false, scriptedModel, problem: (error as Error).message };
  }
}
