import { describe, expect, it } from 'vitest';
import { defaultScope, type Framework } from './frameworks.js';

const shape = { wirings: ['plain', 'guarded-plain'], stores: ['memory', 'file', 'file-shared'] };
const versions = ['1.0.0', '1.10.0', '1.2.0'];
const fw = (newestOnly?: Framework['newestOnly']) =>
  ({ name: 'x', pinned: [], oldest: '1.0.0', defaults: () => versions, shape: async () => shape, load: async () => { throw new Error('unused'); }, ...(newestOnly ? { newestOnly } : {}) }) as Framework;

describe('defaultScope', () => {
  it('leaves the guarded wirings and the named stores to the newest default version', () => {
    const it = fw({ guarded: true, stores: ['file'] });
    expect(defaultScope(it, '1.2.0', versions, shape, {})).toEqual({ wirings: ['plain'], stores: ['memory', 'file-shared'] });
    expect(defaultScope(it, '1.10.0', versions, shape, {})).toBeUndefined();
  });

  it('narrows nothing for a framework that keeps nothing for the newest', () => {
    expect(defaultScope(fw(), '1.0.0', versions, shape, {})).toBeUndefined();
  });

  it('runs only the default wirings of a framework that names them, on every default version', () => {
    const it = { ...fw({ guarded: true }), defaultWirings: ['plain', 'guarded-plain'] } as Framework;
    expect(defaultScope({ ...fw(), defaultWirings: ['plain'] } as Framework, '1.10.0', versions, shape, {})).toEqual({ wirings: ['plain'] });
    expect(defaultScope(it, '1.2.0', versions, shape, {})).toEqual({ wirings: ['plain'] });
    expect(defaultScope(it, '1.10.0', versions, shape, {})).toEqual({ wirings: ['plain', 'guarded-plain'] });
    expect(defaultScope(it, '1.10.0', versions, shape, { wirings: ['guarded-plain'] })).toBeUndefined();
  });

  it('lets a filter the user gave run what it names on every version', () => {
    const it = fw({ guarded: true, stores: ['file'] });
    expect(defaultScope(it, '1.0.0', versions, shape, { wirings: ['guarded-plain'] })).toEqual({ stores: ['memory', 'file-shared'] });
    expect(defaultScope(it, '1.0.0', versions, shape, { wirings: ['guarded-plain'], stores: ['file'] })).toBeUndefined();
  });
});
