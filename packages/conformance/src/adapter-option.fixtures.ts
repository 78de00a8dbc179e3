// A third party's adapter for adapter-option.test.ts: `toy`, one built-in version, two wirings over the reference
// runtime: `unsafe` (the spend recorded after the effect, on the restored snapshot) and `safe` (compare-and-set on a
// fresh read). The test's adapter packages, in temporary folders, re-export it, or a broken copy of it.
import { fileURLToPath } from 'node:url';
import { CONTRACT_VERSION, type Adapter, type FrameworkDescriptor } from '@approval-conformance/core';
import { referenceAdapter } from '@approval-conformance/adapter-reference';

/** This module, for the test's packages to re-export. */
export const TOY = fileURLToPath(import.meta.url);

const WIRINGS = { unsafe: 'after-snapshot', safe: 'cas-fresh' } as const;

function toy(name: string, version: string): Adapter {
  return {
    ...referenceAdapter,
    framework: name,
    version,
    wirings: Object.entries(WIRINGS).map(([id, wiring]) => ({ id, description: `the reference runtime's ${wiring}` })),
    stores: ['memory'],
    applicability: () => ({ applicable: true }),
    createWorld: (env) => referenceAdapter.createWorld({ ...env, wiring: WIRINGS[env.wiring as keyof typeof WIRINGS] }),
  };
}

export const descriptor: FrameworkDescriptor = {
  contractVersion: CONTRACT_VERSION,
  name: 'toy',
  pinned: ['0.1.0'],
  oldest: '0.1.0',
  defaults: () => ['0.1.0'],
  shape: async () => ({ wirings: Object.keys(WIRINGS), stores: ['memory'] }),
  // Named as the descriptor is, so that a copy under another name (the test's) loads as itself.
  async load(version) {
    return { adapter: toy(this.name, version), packages: {} };
  },
};
