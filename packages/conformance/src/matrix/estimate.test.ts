import { describe, expect, it } from 'vitest';
import type { ResultCell } from '../results.js';
import { CostEstimate } from './estimate.js';
import { Progress } from './progress.js';

const unit = (version: string, wiring: string, scenario: string, ms: number): ResultCell => ({
  id: `lg@${version}/${wiring}/memory/${scenario}/at-most-once`,
  framework: 'lg',
  version,
  wiring,
  store: 'memory',
  scenario: scenario as ResultCell['scenario'],
  property: 'at-most-once',
  verdict: 'pass',
  mode: 'exhaustive',
  exhaustive: true,
  schedules: 1,
  ms,
});

const earlier = [unit('1.0', 'a', 'double-resume', 9000), unit('1.0', 'a', 'replay', 10), unit('2.0', 'a', 'double-resume', 7000)];

describe('CostEstimate', () => {
  const estimate = new CostEstimate(earlier);

  it("takes a unit's cost from the same unit, or the same shape in other versions, or the scenario's", () => {
    expect(estimate.unit('lg', '1.0', { wiring: 'a', store: 'memory', scenario: 'double-resume' })).toBe(9000);
    expect(estimate.unit('lg', '3.0', { wiring: 'a', store: 'memory', scenario: 'double-resume' })).toBe(9000);
    expect(estimate.unit('lg', '3.0', { wiring: 'b', store: 'sqlite', scenario: 'replay' })).toBe(10);
  });

  it("takes a version's cost from what it took, or the framework's other versions", () => {
    expect(estimate.version('lg', '1.0')).toBe(9010);
    expect(estimate.version('lg', '9.9')).toBe(9010);
  });

  it('counts units when no earlier run informs it', () => {
    const blind = new CostEstimate([]);
    expect(blind.informed).toBe(false);
    expect(blind.unit('lg', '1.0', { wiring: 'a', store: 'memory', scenario: 'double-resume' })).toBe(1);
  });
});

describe('Progress', () => {
  /** Progress on one version of `lg` whose units are these scenarios on wiring `a`, planned, with the lines it prints. */
  const planned = (...scenarios: ('replay' | 'double-resume')[]) => {
    const lines: string[] = [];
    const io = { out: () => {}, err: (text: string) => void lines.push(text) };
    const target = { framework: 'lg', version: '1.0', spec: 'lg' };
    const progress = new Progress(io, false, [target], new CostEstimate(earlier), false, 0);
    const units = scenarios.map((scenario) => ({ key: `a/memory/${scenario}`, wiring: 'a', store: 'memory', scenario, properties: [] }));
    progress.planned(target, units);
    return { lines, progress, target, units };
  };

  it('says how much of the expected work is done, weighing each unit by its cost, not counting units', () => {
    const { lines, progress, target, units } = planned('replay', 'double-resume');
    progress.started(target, units[0]!);
    progress.finished(target, [unit('1.0', 'a', 'replay', 12)]);
    progress.started(target, units[1]!);
    // One unit of two is done, but a thousandth of the work: too little to tell the time left from.
    expect(lines[1]).toMatch(/^\[1\/2 done\] running lg@1\.0 a memory double-resume · \d+:\d\d elapsed, 0% done\n$/);
  });

  it('tells the time left once enough of the work is done, from how fast it went', () => {
    const { lines, progress, target, units } = planned('double-resume', 'replay');
    progress.finished(target, [unit('1.0', 'a', 'double-resume', 8000)]);
    progress.started(target, units[1]!);
    expect(lines[0]).toMatch(/^\[1\/2 done\] running lg@1\.0 a memory replay · \d+:\d\d elapsed, 99% done, ETA \d+:\d\d\n$/);
  });
});
