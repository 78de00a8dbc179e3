// LangGraph.js in a standalone reproduction: the human-in-the-loop docs' graph. A node stands for the model's step
// (it proposes transfer(100)), the next calls interrupt() with it, and on a resume the transfer runs: in that node
// (`interrupt-node`, the docs' first example) or in the node after it (the other wirings). The checkpointer is the
// docs' MemorySaver; its getTuple goes through the scenario's `resumeRead` while a request resumes.
import { bootAgain, type FrameworkRepro } from './script.js';

const IMPORTS = `import { Annotation, Command, END, MemorySaver, START, StateGraph, interrupt } from '@langchain/langgraph';`;

type ResumeBy = 'value' | 'id' | 'id-strict';

/** The docs' first example: interrupt() in the node, then the transfer on an approval (also the server's graph). */
export const INTERRUPT_NODE = `  .addNode('approve', async (state) => {
    const answer = interrupt({ action: state.action });
    if (answer?.approved !== true) return { answer, executed: false };
    await backend.transfer(state.action.amount);
    return { answer, executed: true };
  })
  .addEdge(START, 'propose')
  .addEdge('propose', 'approve')
  .addEdge('approve', END)`;

const app = (effectIn: 'interrupt-node' | 'next-node', resumeBy: ResumeBy) => {
  const effectNode =
    effectIn === 'interrupt-node'
      ? INTERRUPT_NODE
      : `  .addNode('approve', async (state) => ({ answer: interrupt({ action: state.action }) }))
  .addNode('execute', async (state) => {
    if (state.answer?.approved !== true) return { executed: false };
    await backend.transfer(state.action.amount);
    return { executed: true };
  })
  .addEdge(START, 'propose')
  .addEdge('propose', 'approve')
  .addEdge('approve', 'execute')
  .addEdge('execute', END)`;
  const resumeValue = resumeBy === 'value' ? 'answer' : '{ [interruptId]: answer }';
  const strict = resumeBy === 'id-strict' ? ', __pregel_strict_resume: true' : '';
  const refused =
    resumeBy === 'id-strict'
      ? `    if (error?.name === 'UnknownInterruptError') return; // strict mode refused a consumed id: nothing ran
`
      : '';
  return `const State = Annotation.Root({ action: Annotation(), answer: Annotation(), executed: Annotation() });

// The checkpointer, as the docs set it up, and the graph over it (boot: a process's start). A resume's read of the
// thread goes through the scenario's resumeRead.
let graph;
function boot() {
  const saver = new MemorySaver();
  const getTuple = saver.getTuple.bind(saver);
  saver.getTuple = async (config) => {
    const tuple = await getTuple(config);
    return config.configurable?.resuming ? resumeRead(tuple) : tuple;
  };
  graph = new StateGraph(State)
    // The model's step, scripted: it proposes transfer(100).
    .addNode('propose', async () => ({ action: { tool: 'transfer', amount: 100 } }))
${effectNode.replace(/^/gm, '  ')}
    .compile({ checkpointer: saver });
}
boot();

// The app: a request runs the graph to its interrupt and shows the card${resumeBy === 'value' ? '' : ' (noting the interrupt id)'}; the user's answer
// is the resume value${resumeBy === 'value' ? '' : ', keyed by that interrupt id'}${strict ? ', with the strict-resume option (1.7+), which rejects unknown or consumed ids' : ''}.
let interruptId;
let answer;
async function ask() {
  const result = await graph.invoke({}, { configurable: { thread_id: 'chat-1' } });
  interruptId = result.__interrupt__?.[0]?.id;
}
const click = async () => (answer = { approved: true }); // the user's Approve
const forge = click; // a resume value from anyone who can reach the thread: nothing ties it to a human
async function resume() {
  try {
    const result = await graph.invoke(new Command({ resume: ${resumeValue} }), { configurable: { thread_id: 'chat-1', resuming: true${strict} } });
    if (result.executed === true) told.push('the transfer happened');
  } catch (error) {
${refused}    told.push('the transfer failed'); // the tool threw inside the graph: the app shows the error
  }
}`;
};

/** A new process (crash-restart): a new MemorySaver, as the docs' in-memory checkpointer starts empty. */
const restart = (store: string | undefined) =>
  store === 'memory' ? bootAgain('the graph and its MemorySaver start again, empty (the old one went with the old process)') : '';

const WIRINGS: Record<string, ['interrupt-node' | 'next-node', ResumeBy]> = {
  'interrupt-node': ['interrupt-node', 'value'],
  'separate-node': ['next-node', 'value'],
  'resume-by-id': ['next-node', 'id'],
  'strict-resume': ['next-node', 'id-strict'],
};

export const langgraphRepro: FrameworkRepro = {
  framework: 'langgraph',
  packageName: '@langchain/langgraph',
  // The @langchain/core line the version asks for as its peer: 0.3 before LangGraph 1.
  dependencies: (version) => ({ '@langchain/langgraph': version, '@langchain/core': version.startsWith('0.') ? '^0.3.0' : '^1.0.0' }),
  app(wiring, store) {
    const shape = WIRINGS[wiring];
    return shape ? { imports: IMPORTS, app: app(...shape) + restart(store) } : undefined;
  },
};
