// Small results files for the tests of the commands that read them: cells written by hand, no run needed.
import type { ResultCell, ResultsFile } from './results.js';

export function cell(overrides: Partial<ResultCell> & Pick<ResultCell, 'version' | 'verdict'>): ResultCell {
  const base = {
    framework: 'ai',
    wiring: 'native-approval',
    store: 'memory',
    scenario: 'double-resume' as const,
    property: 'at-most-once' as const,
    mode: 'exhaustive' as const,
    exhaustive: true,
    schedules: 18,
    ...overrides,
  };
  return { id: `${base.framework}@${base.version}/${base.wiring}/${base.store}/${base.scenario}/${base.property}`, ...base };
}

export const failing = (version: string, story: string[] = ['t1 read the record: a1 unspent (v1)']): ResultCell =>
  cell({
    version,
    verdict: 'fail',
    counterexample: {
      steps: 4,
      schedule: 't1:1 t2:1 t1:2 t2:2',
      story,
      explanation: "a1's effect reached the world twice.",
      witness: [0],
      history: [],
    },
  });

export const results = (cells: ResultCell[]): ResultsFile => ({
  schemaVersion: 2,
  targets: [...new Set(cells.map((c) => c.version))].map((version) => ({ framework: 'ai', version, spec: 'ai', packages: { ai: version } })),
  cells,
});
