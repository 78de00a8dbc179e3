// A framework for maintainer-ci.test.ts (an adapter module, which its `conformance` script loads with `--adapter`), so
// that the example workflow's own steps run in seconds and offline: `fakefw`, whose one release (1.0.0, "latest")
// spends atomically (the reference runtime's cas-fresh) and whose local build (`fakefw@file:PATH`, the package
// `fake-fw`) runs the reference wiring its dist/index.js exports. A build that exports `after-snapshot` is a regression.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { CONTRACT_VERSION, localPackage, type Adapter, type FrameworkDescriptor } from '@approval-conformance/core';
import { referenceAdapter } from '@approval-conformance/adapter-reference';

function adapter(version: string, wiring: string): Adapter {
  return {
    ...referenceAdapter,
    framework: 'fakefw',
    version,
    wirings: [{ id: 'only', description: `the reference runtime's ${wiring}` }],
    stores: ['memory'],
    applicability: () => ({ applicable: true }),
    createWorld: (env) => referenceAdapter.createWorld({ ...env, wiring }),
  };
}

export const descriptors: FrameworkDescriptor[] = [
  {
    contractVersion: CONTRACT_VERSION,
    name: 'fakefw',
    npm: 'fake-fw',
    localName: 'fake-fw',
    pinned: ['1.0.0'],
    oldest: '1.0.0',
    listReleases: async () => ['1.0.0'],
    defaults: () => ['1.0.0'],
    shape: async () => ({ wirings: ['only'], stores: ['memory'] }),
    load: async (version, _log, source) => {
      if (source === undefined) return { adapter: adapter(version, 'cas-fresh'), packages: { 'fake-fw': version } };
      // As the real adapters do: the build checked (built, its dependencies installed), then imported.
      const pkg = await localPackage(source, 'fake-fw');
      const build = (await import(pathToFileURL(join(pkg.dir, 'dist/index.js')).href)) as { wiring: string };
      return { adapter: adapter(version, build.wiring), packages: { 'fake-fw': pkg.version } };
    },
  },
];
