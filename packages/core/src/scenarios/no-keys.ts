import { crashRestart } from './crash-restart.js';
import { doubleResume } from './double-resume.js';
import type { ScenarioId } from './ids.js';
import { replay } from './replay.js';
import type { Scenario } from './scenario.js';
import type { History } from '../history/events.js';
import type { PropertyId } from '../properties/ids.js';
import type { PropertyResult } from '../properties/result.js';

// The approval guard sends the tool an idempotency key derived from the approval, and the default backend honours
// it: a second spend that got through would then apply nothing, and the guard's own compare-and-set would go
// unchecked. Most real tools take no key (an e-mail, a message, most internal APIs), so the scenarios that resume one
// approval more than once run again against a backend that ignores keys: the guard must keep at-most-once by its own
// compare-and-set. Only the guard sends keys, so only guarded wirings run them; on any other wiring they would be the
// same as the scenario they copy.
function withoutKeys(base: Scenario, id: ScenarioId): Scenario {
  return {
    ...base,
    id,
    summary: `${base.summary} The tool's backend ignores idempotency keys.`,
    backend: { ...base.backend, honourIdempotencyKeys: false },
    guardedOnly: true,
  };
}

export const doubleResumeNoKeys = withoutKeys(doubleResume, 'double-resume-no-keys');
export const replayNoKeys = withoutKeys(replay, 'replay-no-keys');

/**
 * The window a tool without keys leaves open: the process dies after the effect and before its outcome is recorded.
 * The retry cannot deliver again (it could run the action twice) nor ask the tool, so nobody can learn whether it
 * ran: the user is told it may have (`unknown`). An undisclosed effect is allowed only so, never a phantom failure.
 */
function unknowableAfterCrash(property: PropertyId, history: History, result: PropertyResult): string | undefined {
  if (property !== 'disclosure' || result.witness.length !== 1) return undefined;
  const at = result.witness[0]!;
  const effect = history[at]!;
  if (effect.kind !== 'effect') return undefined;
  const later = history.slice(at + 1);
  const crashed = later.some((e) => e.kind === 'crash' && e.actor === effect.actor);
  const toldUnknown = later.some((e) => e.kind === 'disclosure' && e.approvalId === effect.approvalId && e.says === 'unknown');
  return crashed && toldUnknown
    ? 'the process died between the effect and recording its outcome, and the tool takes no idempotency key: nobody can learn whether it ran, so the user is told it may have (unknown), never that it did not'
    : undefined;
}

export const crashRestartNoKeys: Scenario = { ...withoutKeys(crashRestart, 'crash-restart-no-keys'), allowedGap: unknowableAfterCrash };
