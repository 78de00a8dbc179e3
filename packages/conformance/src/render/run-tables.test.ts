import { describe, expect, it } from 'vitest';
import { cell } from '../results.fixtures.js';
import { renderTargetSummary } from './run-tables.js';

const target = { framework: 'ai', version: '7.0.0', wirings: ['native-approval'], stores: ['memory'] };

describe("a run's summary", () => {
  it('keeps a property that passed wherever it ran, though a scenario did not apply', () => {
    const cells = [
      cell({ version: '7.0.0', verdict: 'pass', scenario: 'double-resume', property: 'at-most-once' }),
      cell({ version: '7.0.0', verdict: 'not-applicable', scenario: 'crash-restart', property: 'at-most-once', exhaustive: false, schedules: 0, reason: 'no restart' }),
      cell({ version: '7.0.0', verdict: 'pass', scenario: 'double-resume', property: 'fresh-view' }),
    ];
    expect(renderTargetSummary(target, cells)).toContain('native-approval/memory: keeps all 2\n');
  });

  it('never counts a property with an error, a timeout or a fail as kept', () => {
    const cells = [
      cell({ version: '7.0.0', verdict: 'pass', scenario: 'double-resume', property: 'at-most-once' }),
      cell({ version: '7.0.0', verdict: 'timeout', scenario: 'crash-restart', property: 'at-most-once', exhaustive: false, reason: 'ran past --timeout' }),
      cell({ version: '7.0.0', verdict: 'pass', scenario: 'double-resume', property: 'fresh-view' }),
    ];
    const out = renderTargetSummary(target, cells);
    expect(out).toContain('native-approval/memory: keeps 1 of 2 (fresh-view)\n');
    expect(out).toContain('no verdict: crash-restart/at-most-once timeout');
  });
});
