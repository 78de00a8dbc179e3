import { doubleResume } from './double-resume.js';
import type { ScenarioId } from './ids.js';
import { replay } from './replay.js';
import type { Scenario } from './scenario.js';

export * from './ids.js';
export * from './scenario.js';

/** The scenarios implemented so far, by id. */
export const SCENARIOS: ReadonlyMap<ScenarioId, Scenario> = new Map([
  [doubleResume.id, doubleResume],
  [replay.id, replay],
]);
