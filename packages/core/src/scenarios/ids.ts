// Scenario ids, as CONTRACT.md names them. Only some are implemented so far; `SCENARIOS` in index.ts lists those.
export const SCENARIO_IDS = [
  'double-resume',
  'replay',
  're-proposal',
  'world-drift',
  'overlapping-turns',
  'error-after-effect',
  'tool-retry',
  'crash-restart',
  'tamper',
  // Two approvals pending at once, one approved and one denied (two-approvals.ts).
  'two-approvals',
  // double-resume with three turns (three-tabs.ts); run only when named (`Scenario.optIn`).
  'three-tabs',
  // The answer comes after the runtime's own timeout for it (late-answer.ts).
  'late-answer',
  // The same as double-resume, replay and crash-restart, against a backend that ignores idempotency keys (guarded
  // wirings only: no-keys.ts).
  'double-resume-no-keys',
  'replay-no-keys',
  'crash-restart-no-keys',
] as const;

export type ScenarioId = (typeof SCENARIO_IDS)[number];
