// The adapter under the suite's explorer: double-resume (two resumes of one approval at once, a click and a typed
// "go ahead") explored over every interleaving. The docs' pattern runs the tool twice, with the shortest schedule
// that shows it; the guarded wiring keeps every property. Tests may import the explorer; the adapter's code may not.
import { describe, expect, it } from 'vitest';
import { SCENARIOS } from '@approval-conformance/core/contract';
import { exploreCell } from '@approval-conformance/core/explorer';
import { adapter } from './adapter.js';
import { descriptor } from './descriptor.js';

async function doubleResume(wiring: string) {
  const cell = await exploreCell({ adapter, wiring, store: 'memory', scenario: SCENARIOS.get('double-resume')! });
  expect(cell.exhausted, 'every schedule in the bound was explored').toBe(true);
  return cell;
}

describe('__NAME__ under double-resume', () => {
  it("runs an approved action twice on the docs' pattern, and shows how", async () => {
    const cell = await doubleResume('resume');
    const atMostOnce = cell.verdicts.find((v) => v.property === 'at-most-once')!;
    expect(atMostOnce.verdict).toBe('fail');
    // The shortest schedule that breaks it, as `approval-conformance replay` takes it, and the story it tells.
    expect(atMostOnce.counterexample!.schedule).toMatch(/^t\d:\d/);
    expect(atMostOnce.counterexample!.story.join('\n')).toContain('effect applied');
  });

  it('keeps every property with the approval guard', async () => {
    const cell = await doubleResume('guarded-resume');
    expect(Object.fromEntries(cell.verdicts.map((v) => [v.property, v.verdict]))).toEqual({
      'at-most-once': 'pass',
      'no-resurrection': 'pass',
      'fresh-view': 'pass',
    });
  });
});

describe('the descriptor', () => {
  it('describes the adapter, and loads its one version', async () => {
    expect(await descriptor.shape()).toEqual({ wirings: ['resume', 'guarded-resume'], stores: ['memory'] });
    expect((await descriptor.load('0.1.0', () => {})).adapter).toBe(adapter);
    await expect(descriptor.load('9.9.9', () => {})).rejects.toThrow(/only available at version 0\.1\.0/);
  });
});
