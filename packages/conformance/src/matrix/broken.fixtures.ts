// Frameworks that go wrong in every way the runner must survive, for its tests: an adapter module of several
// descriptors (`descriptors`), which a test loads with `useAdapters([BROKEN])` or `--adapter`. Each delegates its
// working parts to the reference runtime.
import { appendFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { CONTRACT_VERSION, InstallError, installIsolated, worldNamePrefix, type Adapter, type FrameworkDescriptor } from '@approval-conformance/core';
import { referenceAdapter } from '@approval-conformance/adapter-reference';

/** This module, for `--adapter` and `useAdapters`. */
export const BROKEN = fileURLToPath(import.meta.url);

/** `ok` runs the reference's cas-fresh; `hang` spins forever when HANG is set; `crash` kills its process. */
const WIRINGS = ['ok', 'hang', 'crash'];
/** The postgres store only when UNRELIABLE_POSTGRES is set, so that other tests' cells do not change with a server. */
const stores = () => ['memory', ...(process.env['UNRELIABLE_POSTGRES'] ? ['postgres'] : [])];

function unreliable(version: string): Adapter {
  return {
    framework: 'unreliable',
    version,
    wirings: WIRINGS.map((id) => ({ id, description: id })),
    stores: stores(),
    applicability: () => ({ applicable: true }),
    async createWorld(env) {
      // Every world built leaves a line, so a test can tell which units ran, and how many schedules.
      const log = process.env['UNRELIABLE_LOG'];
      if (log) appendFileSync(log, `${env.wiring}/${env.scenario}\n`);
      // Where a world that dies keeps its files: the runner must remove them after its worker.
      if (log && env.wiring !== 'ok') appendFileSync(log, `scratch ${env.scratchDir}\n`);
      if (env.wiring === 'crash') process.exit(3);
      const world = await referenceAdapter.createWorld({ ...env, wiring: 'cas-fresh' });
      // A world on PostgreSQL has made its schema by now; hanging here leaves it for the runner to drop.
      if (env.wiring === 'hang' && process.env['UNRELIABLE_HANG']) {
        if (log) appendFileSync(log, `prefix ${worldNamePrefix()}\n`);
        for (;;);
      }
      return world;
    },
  };
}

const base = { contractVersion: CONTRACT_VERSION, pinned: ['1.0.0'], oldest: '1.0.0', defaults: () => ['1.0.0'], shape: async () => ({ wirings: WIRINGS, stores: stores() }) };

/** Ten releases: 1.0.0 to 1.0.5 spend after acting (at-most-once fails), 1.0.6 on spend atomically (it holds). */
const FLIPPING = Array.from({ length: 10 }, (_, i) => `1.0.${i}`);

function flipping(version: string): Adapter {
  const wiring = Number(version.split('.')[2]) < 6 ? 'after-snapshot' : 'cas-fresh';
  return { ...referenceAdapter, framework: 'flipping', version, wirings: [{ id: 'only', description: wiring }], stores: ['memory'], applicability: () => ({ applicable: true }), createWorld: (env) => referenceAdapter.createWorld({ ...env, wiring }) };
}

/** The reference's after-snapshot, but its store writes declared as reads: the reductions cannot be trusted on it. */
function misdeclared(version: string): Adapter {
  return {
    ...referenceAdapter,
    framework: 'misdeclared',
    version,
    wirings: [{ id: 'only', description: 'after-snapshot, writes declared as reads' }],
    stores: ['memory'],
    applicability: () => ({ applicable: true }),
    createWorld: (env) =>
      referenceAdapter.createWorld({
        ...env,
        wiring: 'after-snapshot',
        gate: (turn, label, options = {}) =>
          env.gate(turn, label, label.startsWith('store.write') ? { ...options, access: options.access?.map((a) => ({ ...a, mode: 'read' as const })) } : options),
      }),
  };
}

export const descriptors: FrameworkDescriptor[] = [
  { name: 'misdeclared', ...base, shape: async () => ({ wirings: ['only'], stores: ['memory'] }), load: async (version) => ({ adapter: misdeclared(version), packages: { misdeclared: version } }) },
  {
    contractVersion: CONTRACT_VERSION,
    name: 'flipping',
    npm: 'flipping',
    pinned: ['1.0.9'],
    oldest: '1.0.0',
    listReleases: async () => FLIPPING,
    defaults: () => ['1.0.9'],
    shape: async () => ({ wirings: ['only'], stores: ['memory'] }),
    load: async (version) => {
      if (version === '1.0.3') throw new InstallError('it was unpublished');
      return { adapter: flipping(version), packages: { flipping: version } };
    },
  },
  {
    name: 'unreliable',
    ...base,
    load: async (version) => ({ adapter: unreliable(version), packages: { unreliable: version } }),
  },
  {
    // Installed into the cache like a published version (from a local tarball, CACHED_TARBALL: no registry), so that
    // its installed tree has a key: `run --reuse` on a machine whose cache is empty.
    contractVersion: CONTRACT_VERSION,
    name: 'cached',
    npm: 'cached',
    pinned: [],
    oldest: '1.0.0',
    listReleases: async () => ['1.0.0'],
    defaults: () => ['1.0.0'],
    shape: async () => ({ wirings: ['ok'], stores: ['memory'] }),
    load: async (version, log) => {
      await installIsolated(
        { folder: `cached@${version}`, what: `cached@${version}`, manifest: { dependencies: { tiny: `file:${process.env['CACHED_TARBALL']}` } }, shim: 'export {};\n' },
        log,
      );
      return { adapter: { ...unreliable(version), framework: 'cached', wirings: [{ id: 'ok', description: 'ok' }], stores: ['memory'] }, packages: { cached: version } };
    },
  },
  {
    name: 'uninstallable',
    ...base,
    load: async (version) => {
      throw new InstallError('npm install failed: 404 Not Found');
    },
  },
  {
    name: 'unimportable',
    ...base,
    load: async () => {
      await import('./throws-on-import.fixtures.js');
      throw new Error('unreachable');
    },
  },
];
