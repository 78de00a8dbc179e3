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
import { crashRestartNoKeys, doubleResumeNoKeys, replayNoKeys } from './no-keys.js';
import { threeTabs } from './three-tabs.js';
import { twoApprovals } from './two-approvals.js';
import { lateAnswer } from './late-answer.js';

export * from './ids.js';
export * from './scenario.js';
export { TWO_APPROVALS_WAYS } from './two-approvals.js';

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
  [doubleResumeNoKeys.id, doubleResumeNoKeys],
  [replayNoKeys.id, replayNoKeys],
  [crashRestartNoKeys.id, crashRestartNoKeys],
  [twoApprovals.id, twoApprovals],
  [threeTabs.id, threeTabs],
  [lateAnswer.id, lateAnswer],
]);

/** The scenarios a run with no scenario list runs: all but those run only when named (`optIn`). */
export const DEFAULT_SCENARIOS: readonly ScenarioId[] = [...SCENARIOS.values()].filter((s) => !s.optIn).map((s) => s.id);

/** Whether a wiring is one of the approval guard's (`guarded-*`, the adapters' convention). */
export const isGuardedWiring = (wiring: string) => wiring.startsWith('guarded-');

/** Whether `scenario` runs on `wiring`: every scenario does, but those for guarded wirings only (`guardedOnly`). */
export const runsOn = (scenario: Scenario, wiring: string) => !scenario.guardedOnly || isGuardedWiring(wiring);
