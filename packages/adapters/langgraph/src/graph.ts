// The agent under test: LangGraph's documented human-in-the-loop shape. A model step proposes an action, a node
// calls interrupt() with it, and on resume the action runs. Where the effect runs and where the proposal is made are
// the wiring; everything else is LangGraph's own code.
import { type Action, type Fakes, type Recorder } from '@approval-conformance/core/contract';
import { followUpId, type GuardedApp, type GuardedOutcome } from '@approval-conformance/core/kit';
import { turnOf as turnOfInvoke, type Config } from './gated-saver.js';
import type { Module } from './lib.js';

export interface GraphShape {
  /** The effect runs in the interrupting node after interrupt() returns, or in the next node (the docs' advice). */
  readonly effectIn: 'interrupt-node' | 'next-node';
  /** The proposal is its own node before the interrupt, or made in the interrupting node before interrupt(). */
  readonly proposalIn: 'own-node' | 'interrupt-node';
  /** A second approval after the first action ran, for this action. */
  readonly followUp?: Action;
}

export interface GraphDeps {
  readonly lib: Module;
  readonly fakes: Fakes;
  readonly history: Recorder;
  /** The model's alternatives for the first proposal. */
  readonly alternatives: () => readonly Action[];
  /** Guarded wirings: the application's approval guard, in this process. */
  readonly guard?: () => GuardedApp | undefined;
  /** Whose code a node runs as, where that is not the invoke's own configurable key (a server's worker runs it). */
  readonly turnOf?: (config: Config) => string;
}

/** The name of a flow's second approval: `a1.2` after `a1`. */
export { followUpId };

/**
 * The effect. Unguarded, a tool call (a failure throws out of the graph); `executed` says true. Guarded, the guard
 * spends the approval first and the call carries its idempotency key; `executed` says what became of it.
 */
const effectOf =
  (deps: GraphDeps) =>
  async (turn: string, approvalId: string, action: Action): Promise<true | GuardedOutcome> => {
    const dispatch = `${turn}/${approvalId}`;
    const guard = deps.guard?.();
    if (guard) return guard.run(turn, approvalId, action, dispatch);
    await deps.fakes.backend.call(turn, { approvalId, dispatch, action });
    return true;
  };

export function buildGraph(shape: GraphShape, deps: GraphDeps, checkpointer: unknown) {
  const { StateGraph, Annotation, START, END, interrupt } = deps.lib;
  const { model, backend } = deps.fakes;
  const turnOf = deps.turnOf ?? turnOfInvoke;
  const State = Annotation.Root({
    // The approval's name, given by the app with the request: 'a1', 'a2', ...; a flow's second approval is 'a1.2'.
    approval: Annotation(),
    action: Annotation(),
    world: Annotation(),
    answer: Annotation(),
    executed: Annotation(),
    answer2: Annotation(),
    executed2: Annotation(),
  });

  // The model proposes; the world it proposes against is remembered with the action.
  const propose = async (turn: string, approval: string) => {
    const action = await model.decide(turn, 'propose', deps.alternatives());
    const world = backend.world;
    deps.history.emit({ kind: 'proposed', actor: turn, approvalId: approval, action, world });
    return { action, world };
  };
  const effect = effectOf(deps);

  let graph = new StateGraph(State);
  if (shape.proposalIn === 'own-node') {
    graph = graph.addNode('propose', async (s: { approval: string }, config: Config) =>
      propose(turnOf(config), s.approval),
    );
  }
  graph = graph.addNode('approve', async (state: { approval: string; action: Action; world: string }, config: Config) => {
    const turn = turnOf(config);
    // With the proposal in this node, it runs again on every resume ("code before the interrupt runs again").
    const proposal = shape.proposalIn === 'interrupt-node' ? await propose(turn, state.approval) : state;
    const answer = interrupt({ approval: state.approval, action: proposal.action, world: proposal.world });
    const approved = answer?.approved === true;
    const executed = shape.effectIn === 'interrupt-node' && approved ? await effect(turn, state.approval, proposal.action) : false;
    return {
      action: proposal.action,
      world: proposal.world,
      answer,
      ...(shape.effectIn === 'interrupt-node' ? { executed } : {}),
    };
  });
  if (shape.effectIn === 'next-node') {
    type Answered = { approval: string; action: Action; answer?: { approved?: boolean } };
    graph = graph.addNode('execute', async (state: Answered, config: Config) => {
      if (state.answer?.approved !== true) return { executed: false };
      return { executed: await effect(turnOf(config), state.approval, state.action) };
    });
  }
  const followUp = shape.followUp;
  if (followUp) {
    graph = graph.addNode('approve2', async (state: { approval: string }, config: Config) => {
      const second = followUpId(state.approval);
      const answer2 = interrupt({ approval: second, action: followUp, world: backend.world });
      return { answer2, executed2: answer2?.approved === true ? await effect(turnOf(config), second, followUp) : false };
    });
  }

  const first = shape.proposalIn === 'own-node' ? 'propose' : 'approve';
  const last = shape.effectIn === 'next-node' ? 'execute' : 'approve';
  graph = graph.addEdge(START, first);
  if (shape.proposalIn === 'own-node') graph = graph.addEdge('propose', 'approve');
  if (shape.effectIn === 'next-node') graph = graph.addEdge('approve', 'execute');
  graph = followUp ? graph.addEdge(last, 'approve2').addEdge('approve2', END) : graph.addEdge(last, END);
  return graph.compile({ checkpointer });
}

/** One proposed call of a parallel step, as a branch of the graph carries it. */
interface Call {
  readonly approval: string;
  readonly action: Action;
  readonly world: string;
}

/** A state channel that merges what parallel branches write, keyed by approval. */
const merged = (Annotation: Module['Annotation']) =>
  Annotation({ reducer: (a: Record<string, unknown>, b: Record<string, unknown>) => ({ ...a, ...b }), default: () => ({}) });

/**
 * Several calls proposed in one model step, each confirmed by its own interrupt: the model node fans out with `Send`,
 * one `approve` branch per call, as the docs fan out parallel work; the branches pause together, so the thread holds
 * one interrupt per call. Each branch's answer and effect are kept under its approval's name. With the effect in the
 * next node, one `execute` node runs every approved call once all branches have their answer.
 */
export function buildParallelGraph(
  shape: Pick<GraphShape, 'effectIn'>,
  deps: GraphDeps & { readonly parallel: () => readonly (readonly Action[])[] },
  checkpointer: unknown,
) {
  const { StateGraph, Annotation, START, END, interrupt, Send } = deps.lib;
  const { model, backend } = deps.fakes;
  const turnOf = deps.turnOf ?? turnOfInvoke;
  const State = Annotation.Root({
    // The names the app gives the calls, with the request: ['a1', 'a2'].
    approvals: Annotation(),
    calls: Annotation(),
    answers: merged(Annotation),
    executed: merged(Annotation),
  });
  const effect = effectOf(deps);

  let graph = new StateGraph(State);
  graph = graph.addNode('propose', async (s: { approvals: readonly string[] }, config: Config) => {
    const turn = turnOf(config);
    const calls: Call[] = [];
    for (const [index, alternatives] of [deps.alternatives(), ...deps.parallel()].entries()) {
      const approval = s.approvals[index]!;
      const action = await model.decide(turn, 'propose', alternatives);
      const world = backend.world;
      deps.history.emit({ kind: 'proposed', actor: turn, approvalId: approval, action, world });
      calls.push({ approval, action, world });
    }
    return { calls };
  });
  graph = graph.addNode('approve', async (call: Call, config: Config) => {
    const answer = interrupt({ approval: call.approval, action: call.action, world: call.world });
    const approved = answer?.approved === true;
    const executed = shape.effectIn === 'interrupt-node' && approved ? await effect(turnOf(config), call.approval, call.action) : false;
    return { answers: { [call.approval]: answer }, ...(shape.effectIn === 'interrupt-node' ? { executed: { [call.approval]: executed } } : {}) };
  });
  graph = graph.addEdge(START, 'propose');
  graph = graph.addConditionalEdges('propose', (s: { calls: readonly Call[] }) => s.calls.map((call) => new Send('approve', call)));
  if (shape.effectIn === 'next-node') {
    graph = graph.addNode('execute', async (s: { calls: readonly Call[]; answers: Record<string, { approved?: boolean }> }, config: Config) => {
      const executed: Record<string, unknown> = {};
      for (const call of s.calls) {
        executed[call.approval] = s.answers[call.approval]?.approved === true ? await effect(turnOf(config), call.approval, call.action) : false;
      }
      return { executed };
    });
    graph = graph.addEdge('approve', 'execute').addEdge('execute', END);
  } else {
    graph = graph.addEdge('approve', END);
  }
  return graph.compile({ checkpointer });
}
