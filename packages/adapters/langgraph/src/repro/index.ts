// LangGraph.js in a standalone reproduction: the human-in-the-loop docs' graph. A node stands for the model's step
// (it proposes transfer(100)), the next calls interrupt() with it, and on a resume the transfer runs: in that node
// (`interrupt-node`, the docs' first example) or in the node after it (the other wirings). The checkpointer is the
// docs' MemorySaver; its getTuple goes through the scenario's `resumeRead` while a request resumes. For
// overlapping-turns the app also takes a second request (a new message on the same thread, which the model answers
// with notify) and holds the resume after its read until that request has saved its card (`resumeSave`).
import { bootAgain, type FrameworkRepro } from '@approval-conformance/core/kit';

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

/**
 * The resume's read, and for overlapping-turns the hold after it: before the resume's step, since LangGraph draws the
 * id of the checkpoint a step saves (the newest id is the thread's state) when the step ends, inside invoke. The
 * suite's counterexample holds the resume at its transfer until the new request has drawn its card's checkpoint, and
 * the resume's put until that request has read its card back; a hold at the put alone leaves the card the newest.
 */
const resumeReadOf = (overlap: boolean) =>
  overlap
    ? `  saver.getTuple = async (config) => {
    const tuple = await getTuple(config);
    if (!config.configurable?.resuming) return tuple;
    const read = await resumeRead(tuple);
    resumeHasRead(); // the new request comes in now
    await resumeSave();
    return read;
  };`
    : `  saver.getTuple = async (config) => {
    const tuple = await getTuple(config);
    return config.configurable?.resuming ? resumeRead(tuple) : tuple;
  };`;

/** overlapping-turns' second request and what the thread holds, for the app below. */
const OVERLAP = `

// A new request in the same chat (another tab): a new message on the thread, sent while the resume runs (once it has
// read the thread). LangGraph starts a new run from it; the model proposes notify, and the run stops at its interrupt.
// invoke returns once the run's checkpoints are saved; the app reads the thread's state to show the card.
let hasRead;
const resumeHasRead = () => hasRead();
const readByResume = new Promise((resolve) => (hasRead = resolve));
async function ask2() {
  await readByResume;
  await graph.invoke({ request: 'notify' }, { configurable: { thread_id: 'chat-1' } });
  if (!(await holds('notify'))) throw new Error('no card for notify');
  secondSaved();
}
// Whether the thread's state (its newest checkpoint) still waits on an interrupt for the tool.
async function holds(name) {
  const state = await graph.getState({ configurable: { thread_id: 'chat-1' } });
  return state.tasks.some((task) => task.interrupts?.some((it) => it.value?.action?.tool === name));
}`;

const app = (effectIn: 'interrupt-node' | 'next-node', resumeBy: ResumeBy, overlap = false) => {
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
  return `const State = Annotation.Root({ ${overlap ? 'request: Annotation(), ' : ''}action: Annotation(), answer: Annotation(), executed: Annotation() });

// The checkpointer, as the docs set it up, and the graph over it (boot: a process's start). A resume's read of the
// thread goes through the scenario's resumeRead${
    overlap
      ? `; the resume then waits there, before its step, until the new
// request has saved its card (resumeSave). LangGraph makes the resume's checkpoint (its id, which orders the
// thread's checkpoints) when the step ends, inside invoke: held only at its save, the resume's checkpoint would be
// older than the card's, and the card would stay the thread's state`
      : ''
  }.
let graph;
function boot() {
  const saver = new MemorySaver();
  const getTuple = saver.getTuple.bind(saver);
${resumeReadOf(overlap)}
  graph = new StateGraph(State)
${
  overlap
    ? `    // The model's step, scripted: it proposes transfer(100), or notify when the user asks for a notice.
    .addNode('propose', async (state) => ({ action: state.request === 'notify' ? { tool: 'notify' } : { tool: 'transfer', amount: 100 } }))`
    : `    // The model's step, scripted: it proposes transfer(100).
    .addNode('propose', async () => ({ action: { tool: 'transfer', amount: 100 } }))`
}
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
}${overlap ? OVERLAP : ''}`;
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
  app(wiring, store, scenario) {
    const shape = WIRINGS[wiring];
    return shape ? { imports: IMPORTS, app: app(...shape, scenario === 'overlapping-turns') + restart(store) } : undefined;
  },
};
