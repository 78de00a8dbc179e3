import { crashRestart } from './crash-restart.js';
import { doubleResume } from './double-resume.js';
import { errorAfterEffect } from './error-after-effect.js';
import type { ScenarioId } from './ids.js';
import { overlappingTurns } from './overlapping-turns.js';
import { reProposal } from './re-proposal.js';
import { replay } from './replay.js';
import type { Scenario } from './scenario.js';
import { tamper } from './tamper.js';
import { toolRetry } from './tool-retry.js';
import { worldDrift } from './world-drift.js';

export * from './ids.js';
export * from './scenario.js';

/** The scenarios implemented so far, by id. */
export const SCENARIOS: ReadonlyMap<ScenarioId, Scenario> = new Map([
  [doubleResume.id, doubleResume],
  [replay.id, replay],
  [reProposal.id, reProposal],
  [worldDrift.id, worldDrift],
  [errorAfterEffect.id, errorAfterEffect],
  [toolRetry.id, toolRetry],
  [crashRestart.id, crashRestart],
  [overlappingTurns.id, overlappingTurns],
  [tamper.id, tamper],
]);
