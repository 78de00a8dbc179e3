// What an installed LangGraph can do, found by trying it rather than by reading its version number.
import type { LangGraphLib } from './lib.js';

export interface Features {
  /** Interrupts carry an id a resume can name (0.4+). */
  readonly interruptIds: boolean;
  /** The strict-resume option rejects unknown or consumed interrupt ids (1.7+, undocumented). */
  readonly strictResume: boolean;
  /** The SQLite checkpointer is installed. */
  readonly sqlite: boolean;
}

export const STRICT_RESUME_KEY = '__pregel_strict_resume';

/** Runs a one-node graph to its interrupt on the framework's own MemorySaver and looks at what it got back. */
export async function detectFeatures(lib: LangGraphLib): Promise<Features> {
  const { StateGraph, Annotation, START, END, interrupt, MemorySaver } = lib.langgraph;
  const State = Annotation.Root({ answer: Annotation() });
  const graph = new StateGraph(State)
    .addNode('ask', () => ({ answer: interrupt({ probe: true }) }))
    .addEdge(START, 'ask')
    .addEdge('ask', END)
    .compile({ checkpointer: new MemorySaver() });
  const config = { configurable: { thread_id: 'probe' } };
  await graph.invoke({}, config);
  const state = await graph.getState(config);
  const interrupts = state.tasks?.flatMap((t: { interrupts?: unknown[] }) => t.interrupts ?? []) ?? [];
  return {
    interruptIds: typeof (interrupts[0] as { id?: unknown } | undefined)?.id === 'string',
    strictResume: typeof lib.langgraph['UnknownInterruptError'] === 'function',
    sqlite: typeof lib.sqlite?.['SqliteSaver'] === 'function',
  };
}
