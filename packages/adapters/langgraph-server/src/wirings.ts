// The wirings: one per multitask strategy the server offers for a second run on a busy thread ("double texting"),
// each resumed the two ways the docs show, and the approval guard added to the server's graph.
import type { WiringInfo } from '@approval-conformance/core/contract';

export type Strategy = 'reject' | 'enqueue' | 'interrupt' | 'rollback';

export interface Wiring extends WiringInfo {
  /** The `multitaskStrategy` every run of the app is created with. */
  readonly strategy: Strategy;
  /** A plain `command: { resume }`, or one keyed by the interrupt's id (`{ [id]: value }`). */
  readonly resumeBy: 'value' | 'id';
  /** With the approval guard (@approval-conformance/guard) between the resume and the tool, and nothing else changed. */
  readonly guarded?: true;
}

const DOUBLE_TEXTING = 'https://docs.langchain.com/langsmith/double-texting';

const STRATEGIES: Readonly<Record<Strategy, string>> = {
  reject: "a run on a busy thread is refused (422); the local server's default (`langgraph dev`)",
  enqueue: "a run on a busy thread waits for the running one to finish, then runs; the Agent Server's documented default",
  interrupt: 'a run on a busy thread interrupts the running one, which keeps its progress, and runs',
  rollback: 'a run on a busy thread cancels the running one and runs; a pending one is deleted with its checkpoints',
};

const strategyWirings = (strategy: Strategy): Wiring[] => [
  {
    id: strategy,
    description: `runs created with multitaskStrategy '${strategy}': ${STRATEGIES[strategy]}; resumed with command: { resume }`,
    strategy,
    resumeBy: 'value',
    // The server's own default (the local server's, `langgraph dev`): a run created with no strategy is rejected on a
    // busy thread. The Agent Server's docs name the same default for double texting.
    ...(strategy === 'reject' ? { docsDefault: true as const } : { remedy: DOUBLE_TEXTING }),
  },
  {
    id: `${strategy}-by-id`,
    description: `runs created with multitaskStrategy '${strategy}'; resumed with command: { resume: { [interruptId]: value } }`,
    strategy,
    resumeBy: 'id',
    ...(strategy === 'reject' ? {} : { remedy: DOUBLE_TEXTING }),
  },
];

export const UNGUARDED: readonly Wiring[] = (['reject', 'enqueue', 'interrupt', 'rollback'] as const).flatMap(strategyWirings);

/** The docs' default with the approval guard added: a record before the card, a spend before the effect. */
export const GUARDED_WIRINGS: readonly Wiring[] = [
  {
    id: 'guarded-reject',
    description: `${UNGUARDED[0]!.description}; with the approval guard (@approval-conformance/guard) between the resume and the tool`,
    strategy: 'reject',
    resumeBy: 'value',
    guarded: true,
  },
];

export const WIRINGS: readonly Wiring[] = [...UNGUARDED, ...GUARDED_WIRINGS];
