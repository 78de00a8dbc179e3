// zod 3.25's global registry held every described schema for good; Mastra describes a new one on every tool call.
import { describe, expect, it } from 'vitest';
import { pinnedLib } from './lib.js';
import { mastrasZodCore, weakenZodRegistry } from './zod-registry.js';

interface Registry {
  _map: unknown;
  add(schema: object, meta: object): unknown;
  get(schema: object): unknown;
}

describe("zod's global registry, as Mastra loads it", () => {
  it('holds schemas weakly once weakened, and still answers for them', async () => {
    const lib = await pinnedLib('1.71');
    const registry = (await mastrasZodCore(lib.dir))!['globalRegistry'] as Registry;
    const before = { _zod: {} };
    registry.add(before, { description: 'added before' });
    expect(registry._map).toBeInstanceOf(Map);

    expect(await weakenZodRegistry(lib.dir)).toBe(true);
    expect(registry._map).toBeInstanceOf(WeakMap);
    expect(registry.get(before)).toEqual({ description: 'added before' });
    const after = { _zod: {} };
    registry.add(after, { description: 'added after' });
    expect(registry.get(after)).toEqual({ description: 'added after' });
    // Once is enough: a second adapter over the same version finds it weak already.
    expect(await weakenZodRegistry(lib.dir)).toBe(false);
  });

  it('leaves alone what it cannot find', async () => {
    expect(await weakenZodRegistry(undefined)).toBe(false);
    expect(await weakenZodRegistry('/nonexistent')).toBe(false);
  });
});
