// A framework whose releases change a part of the world's state that no gate declares, for the tests of `run`'s check
// of contents (an adapter module: a test loads it with `--adapter` or `useAdapters`). Every event and store call it makes is the
// reference runtime's, declared as ever: only reading its state around each release shows the change.
import { CONTRACT_VERSION, type Adapter, type FrameworkDescriptor } from '@approval-conformance/core';
import { referenceAdapter } from '@approval-conformance/adapter-reference';

/** The reference's cas-fresh, but the code after each of its gates also bumps `hidden`, which no gate declares. */
function undeclared(version: string): Adapter {
  return {
    ...referenceAdapter,
    framework: 'undeclared',
    version,
    wirings: [{ id: 'only', description: 'cas-fresh, and a write no gate declares' }],
    stores: ['memory'],
    applicability: () => ({ applicable: true }),
    async createWorld(env) {
      let bumps = 0;
      const world = await referenceAdapter.createWorld({
        ...env,
        wiring: 'cas-fresh',
        gate: async (turn, label, options) => {
          const released = await env.gate(turn, label, options);
          bumps++;
          return released;
        },
      });
      return { ...world, contents: async () => ({ ...(await world.contents!()), hidden: String(bumps) }) };
    },
  };
}

export const descriptors: FrameworkDescriptor[] = [
  {
    contractVersion: CONTRACT_VERSION,
    name: 'undeclared',
    pinned: ['1.0.0'],
    oldest: '1.0.0',
    defaults: () => ['1.0.0'],
    shape: async () => ({ wirings: ['only'], stores: ['memory'] }),
    load: async (version) => ({ adapter: undeclared(version), packages: { undeclared: version } }),
  },
];
