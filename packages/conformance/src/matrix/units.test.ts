import { describe, expect, it } from 'vitest';
import type { Adapter } from '@approval-conformance/core';
import { planUnits } from './units.js';

const adapter = {
  framework: 'fixture',
  version: '1.0.0',
  wirings: [{ id: 'plain', description: 'plain' }, { id: 'newer', description: 'needs a newer release' }],
  stores: ['memory'],
  applicability: (_scenario: string, wiring: string) =>
    wiring === 'newer' ? { applicable: false as const, reason: 'this version lacks it' } : { applicable: true as const },
  createWorld: () => Promise.reject(new Error('not run here')),
} as unknown as Adapter;

describe('planUnits', () => {
  it('marks the units the version cannot run, so that an audit leaves them out', () => {
    const units = planUnits(adapter, { scenarios: ['replay'] });
    expect(units.map((u) => [u.key, u.notApplicable ?? false])).toEqual([
      ['plain/memory/replay', false],
      ['newer/memory/replay', true],
    ]);
  });
});
