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
] as const;

export type ScenarioId = (typeof SCENARIO_IDS)[number];
