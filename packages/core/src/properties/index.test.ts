import { describe, expect, it } from 'vitest';
import { CAS_HOLDS, DOUBLE_EFFECT, LOST_UPDATE } from '../history/essay.fixtures.js';
import { checkProperty, PROPERTIES, PROPERTY_IDS, type PropertyId } from './index.js';

const failing = (history: Parameters<typeof checkProperty>[1]) =>
  PROPERTY_IDS.filter((id) => !checkProperty(id, history).holds);

describe('PROPERTIES', () => {
  it('has one predicate per property id, each reporting its own id', () => {
    expect(Object.keys(PROPERTIES).sort()).toEqual([...PROPERTY_IDS].sort());
    for (const id of PROPERTY_IDS) expect(checkProperty(id, []).property).toBe(id);
  });

  it('finds nothing wrong with an empty history', () => {
    expect(failing([])).toEqual([]);
  });
});

describe("the essay's histories", () => {
  it('compare-and-set: every property holds', () => {
    expect(failing(CAS_HOLDS)).toEqual([]);
  });

  it('7-step double effect: two effects, and a record that said unspent after the first', () => {
    expect(failing(DOUBLE_EFFECT)).toEqual<PropertyId[]>(['at-most-once', 'no-resurrection', 'exactly-once-delivery']);
  });

  it('9-step lost update: two effects, the second from a stale view; the record was spent before each', () => {
    expect(failing(LOST_UPDATE)).toEqual<PropertyId[]>(['at-most-once', 'fresh-view', 'exactly-once-delivery']);
  });
});
