// One way through a scenario, judged: program order except for one adversary choice at one gate. How a test asks
// "what does this runtime do when the holder re-points the approval?" rather than "what is the shortest failure?".
import type { History } from '../history/events.js';
import type { PropertyId } from '../properties/ids.js';
import { PROPERTIES, type PropertyResult } from '../properties/index.js';
import { SCENARIOS, type ScenarioId } from '../scenarios/index.js';
import { waySelector } from '../scheduler/selectors.js';
import { runWorld, type Subject } from './world-run.js';

export interface Way {
  readonly gate: string;
  readonly choice: number;
}

export interface WaySubject extends Omit<Subject, 'scenario' | 'store'> {
  readonly scenario: ScenarioId;
  /** Default: memory. */
  readonly store?: string;
}

/**
 * The property's verdict on the way's history, what each turn that failed was told, and the history itself. Throws if
 * the run did not complete.
 */
export async function judgeWay(
  subject: WaySubject,
  way: Way,
  property: PropertyId,
): Promise<PropertyResult & { errors: string[]; history: History }> {
  const scenario = SCENARIOS.get(subject.scenario);
  if (!scenario) throw new Error(`unknown scenario '${subject.scenario}'`);
  const run = await runWorld({ ...subject, store: subject.store ?? 'memory', scenario }, waySelector(way));
  if (run.status !== 'complete') throw new Error(`the run ended ${run.status}: ${run.reason ?? ''}`);
  const errors = run.turnErrors.map((e) => ('message' in e ? e.message : e.status));
  return { ...PROPERTIES[property](run.history.events), errors, history: run.history.events };
}
