// The fingerprint is what an approval binds, so two things must hold: the same action always has the same fingerprint
// (whatever order a serializer wrote its keys or the caller listed its targets in, and before or after a trip through
// a store's JSON), and any change to what would run changes it. What JSON cannot hold faithfully is refused, never
// guessed at: a guess is where two different actions would share a fingerprint.
import { fc, it } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import { canonicalJson, fingerprint, type GuardedAction } from './fingerprint.js';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** A small deterministic shuffle driven by `seed`, so a failing case replays from fast-check's seed alone. */
function shuffled<T>(items: readonly T[], seed: number): T[] {
  const out = [...items];
  let s = seed >>> 0 || 1;
  for (let i = out.length - 1; i > 0; i--) {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    const j = s % (i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/** The same value with the keys of every object in another order (Object.fromEntries: a `__proto__` key stays a key). */
function reordered(value: Json, seed: number): Json {
  if (Array.isArray(value)) return value.map((v, i) => reordered(v, seed + i + 1));
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(shuffled(Object.entries(value), seed).map(([k, v], i) => [k, reordered(v, seed * 31 + i)]));
}

/** The value with one leaf changed (chosen by `pick`), so that its JSON surely differs. */
function changedLeaf(value: Json, pick: number): Json {
  if (Array.isArray(value)) {
    if (value.length === 0) return [null];
    const at = pick % value.length;
    return value.map((v, i) => (i === at ? changedLeaf(v, Math.floor(pick / value.length)) : v));
  }
  if (value !== null && typeof value === 'object') {
    const keys = Object.keys(value);
    if (keys.length === 0) return { added: null };
    const at = keys[pick % keys.length]!;
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, k === at ? changedLeaf(v, Math.floor(pick / keys.length)) : v]));
  }
  if (value === null) return 0;
  if (typeof value === 'boolean') return !value;
  if (typeof value === 'number') return value + 1 === value ? -value || 1 : value + 1;
  return `${value}.`;
}

const json = fc.jsonValue({ maxDepth: 4 }) as fc.Arbitrary<Json>;
const targets = fc.uniqueArray(fc.string({ maxLength: 6 }), { maxLength: 5 });
const action = fc.record({ tool: fc.string({ maxLength: 8 }), args: json, targets });
const seed = fc.noShrink(fc.nat());

describe('the canonical form', () => {
  it('sorts keys at every depth and leaves out whitespace and undefined members', () => {
    expect(canonicalJson({ b: 1, a: { d: [1, { f: 2, e: undefined }], c: 'x' } })).toBe('{"a":{"c":"x","d":[1,{"f":2}]},"b":1}');
  });

  it.prop([json, seed])('does not depend on the order of keys', (value, s) => {
    expect(canonicalJson(reordered(value, s))).toBe(canonicalJson(value));
  });

  it.prop([json])('is the JSON a store keeps: the same after a JSON round trip, and parses back to the value', (value) => {
    expect(canonicalJson(JSON.parse(JSON.stringify(value)))).toBe(canonicalJson(value));
    expect(JSON.parse(canonicalJson(value))).toEqual(JSON.parse(JSON.stringify(value)));
  });

  it('writes the holes of a sparse array as null, as JSON does (not `[,1]`, which is not JSON)', () => {
    // eslint-disable-next-line no-sparse-arrays
    expect(canonicalJson([, 1])).toBe('[null,1]');
    expect(canonicalJson([undefined, 1])).toBe('[null,1]');
  });

  it('applies toJSON as JSON does: a Date is its ISO string, so two different dates differ', () => {
    expect(canonicalJson({ at: new Date(0) })).toBe('{"at":"1970-01-01T00:00:00.000Z"}');
    expect(fingerprint({ tool: 'pay', args: { at: new Date(0) } })).not.toBe(fingerprint({ tool: 'pay', args: { at: new Date(1) } }));
  });
});

describe('the fingerprint', () => {
  it.prop([action, seed])('does not depend on key order or target order', (a, s) => {
    const same: GuardedAction = { tool: a.tool, args: reordered(a.args, s), targets: shuffled(a.targets, s) };
    expect(fingerprint(same)).toBe(fingerprint(a));
  });

  it('is sha256: and 64 hex digits', () => {
    expect(fingerprint({ tool: 'transfer', args: { amount: 1 } })).toMatch(/^sha256:[0-9a-f]{64}$/);
  });

  // Each way an action can change, made on random actions: the change reaches the fingerprint.
  const changes: Record<string, (a: GuardedAction & { args: Json; targets: string[] }, pick: number) => GuardedAction> = {
    'the tool': (a) => ({ ...a, tool: `${a.tool}x` }),
    'one leaf of the arguments': (a, pick) => ({ ...a, args: changedLeaf(a.args, pick) }),
    'the arguments wrapped in an array': (a) => ({ ...a, args: [a.args] }),
    'a target added': (a) => ({ ...a, targets: [...a.targets, `${a.targets.join('')}+`] }),
    'a target dropped': (a, pick) => ({ ...a, targets: a.targets.filter((_, i) => i !== pick % Math.max(1, a.targets.length)) }),
    'a target renamed': (a, pick) => ({ ...a, targets: a.targets.map((t, i) => (i === pick % Math.max(1, a.targets.length) ? `${t}'` : t)) }),
  };
  describe.each(Object.entries(changes))('changes with %s', (name, change) => {
    it.prop([action, fc.nat()])('on any action', (a, pick) => {
      const b = change(a, pick);
      // Dropping a target from none, or renaming none, is no change: nothing to check then.
      fc.pre(!(name.startsWith('a target') && name !== 'a target added' && a.targets.length === 0));
      expect(fingerprint(b)).not.toBe(fingerprint(a));
    });
  });

  it('keeps values of different types apart', () => {
    const fp = (args: unknown) => fingerprint({ tool: 't', args });
    const values = [1, '1', true, 'true', null, 'null', [], {}, [1], { 0: 1 }, ['a', 'b'], ['a,b'], { a: 'b' }, { 'a:b': null }];
    expect(new Set(values.map(fp)).size).toBe(values.length);
  });

  it('treats missing arguments as null and missing targets as none, so either spelling binds the same action', () => {
    expect(fingerprint({ tool: 't', args: undefined })).toBe(fingerprint({ tool: 't', args: null }));
    expect(fingerprint({ tool: 't', args: 1 })).toBe(fingerprint({ tool: 't', args: 1, targets: [] }));
  });
});

describe('refusals', () => {
  const cyclic: Record<string, unknown> = {};
  cyclic['self'] = cyclic;
  class Money {
    constructor(readonly cents: number) {}
  }
  const refused: [string, unknown][] = [
    ['a bigint', 10n],
    ['NaN', Number.NaN],
    ['Infinity', Number.POSITIVE_INFINITY],
    ['-Infinity', Number.NEGATIVE_INFINITY],
    ['a function', () => 1],
    ['a symbol', Symbol('s')],
    // JSON would keep none of their contents: every Map would bind like every other.
    ['a Map', new Map([['amount', 100]])],
    ['a Set', new Set(['acct-1'])],
    ['a class instance', new Money(100)],
    ['a boxed string', new String('x')],
    ['a cycle', cyclic],
  ];
  it.each(refused)('refuses %s with a TypeError, at the top or nested', (_, value) => {
    expect(() => canonicalJson(value)).toThrow(TypeError);
    expect(() => fingerprint({ tool: 't', args: { nested: [value] } })).toThrow(TypeError);
  });

  it('accepts a shared object that is not a cycle (the same object twice is a tree, not a loop)', () => {
    const shared = { a: 1 };
    expect(canonicalJson({ x: shared, y: [shared] })).toBe('{"x":{"a":1},"y":[{"a":1}]}');
  });

  it('accepts an object without a prototype', () => {
    const bare = Object.assign(Object.create(null) as Record<string, unknown>, { b: 2, a: 1 });
    expect(canonicalJson(bare)).toBe('{"a":1,"b":2}');
  });
});
