import { describe, expect, it } from 'vitest';
import { auditUnitId, selectUnits, weightOf, type AuditUnit } from './select.js';

const unit = (framework: string, scenario: AuditUnit['scenario'], wiring = 'w', store = 'memory'): AuditUnit => ({ framework, version: '1.0.0', wiring, store, scenario });

const POPULATION: AuditUnit[] = [
  ...['replay', 'tamper', 'world-drift', 'double-resume', 'overlapping-turns'].flatMap((s) => [unit('ai', s as never), unit('langgraph', s as never)]),
  unit('mastra', 'double-resume', 'guarded-agent-approval', 'libsql-shared'),
  unit('reference', 'tamper'),
];

describe('selectUnits', () => {
  it('picks the same cells for the same seed, and others for another', () => {
    const a = selectUnits(POPULATION, 5, 1).map(auditUnitId);
    expect(selectUnits(POPULATION, 5, 1).map(auditUnitId)).toEqual(a);
    expect(new Set(a).size).toBe(5);
    const seeds = new Set([1, 2, 3, 4, 5].map((seed) => selectUnits(POPULATION, 5, seed).map(auditUnitId).join()));
    expect(seeds.size).toBeGreaterThan(1);
  });

  it('gives every framework a cell when there are enough', () => {
    expect(new Set(selectUnits(POPULATION, 4, 7).map((u) => u.framework))).toEqual(new Set(['ai', 'langgraph', 'mastra', 'reference']));
  });

  it('gives every framework a cell whatever the seed, one with a single light unit too', () => {
    const population = [...POPULATION, { ...unit('cloudflare-agents', 'replay'), schedules: 9000 }];
    for (let seed = 0; seed < 50; seed++) {
      expect(new Set(selectUnits(population, 5, seed).map((u) => u.framework))).toEqual(new Set(['ai', 'langgraph', 'mastra', 'reference', 'cloudflare-agents']));
    }
  });

  it('with fewer cells than frameworks, leaves out other frameworks for other seeds', () => {
    const left = new Set<string>();
    for (let seed = 0; seed < 20; seed++) {
      const picked = new Set(selectUnits(POPULATION, 3, seed).map((u) => u.framework));
      expect(picked.size).toBe(3);
      for (const f of ['ai', 'langgraph', 'mastra', 'reference']) if (!picked.has(f)) left.add(f);
    }
    expect(left).toEqual(new Set(['ai', 'langgraph', 'mastra', 'reference']));
  });

  it('weighs two turns at once, the guard, Mastra and two processes above a plain cell', () => {
    expect(weightOf(unit('ai', 'double-resume'))).toBeGreaterThan(weightOf(unit('ai', 'tamper')));
    expect(weightOf(unit('mastra', 'double-resume', 'guarded-agent-approval', 'libsql-shared'))).toBeGreaterThan(weightOf(unit('ai', 'double-resume')));
    // The frameworks' own fixes: a take in one gate, a Set of the app's behind gates.
    expect(weightOf({ ...unit('openai-agents', 'double-resume', 'server-owned-state'), remedy: true })).toBeGreaterThan(weightOf(unit('openai-agents', 'double-resume')));
  });

  it('returns the whole population when asked for more', () => {
    expect(selectUnits(POPULATION, 100, 1)).toHaveLength(POPULATION.length);
  });
});
