// What the suite knows of the framework: its name, its versions, and how a version loads into an adapter. The runner
// imports this entry (package.json "exports" "./descriptor") to list frameworks, so keep it cheap: the adapter and
// the framework are imported in `shape` and `load`, not at the top.
//
// The toy has one built-in version and nothing to install. For a real framework on npm:
//   npm: 'the-framework',               its releases are its versions (`--framework __NAME__@1.2.3`, `@latest`, `@1.2`)
//   pinned: [],                         versions that load with nothing to install: none, for a framework on npm
//   oldest: '1.0.0',                    the first version the adapter drives
//   defaults: (releases) => ...         the default matrix's versions: where a verdict changes, and the newest
//                                       (the kit's `lastOfEachMinor(releases)` is a start)
//   load: install the version with the kit's `installIsolated` (into the suite's cache, scripts disabled, once),
//         import it from there, make the adapter over it, and say what loaded with `loadedPackages(dir, [names])`;
//         throw the kit's `InstallError` when an install fails, `AdapterInputError` for a version that cannot be had.
//   repro: how a failing cell becomes a standalone script over the framework alone, for its maintainers
//         (`approval-conformance repro`; repro.ts): its imports and dependencies become the framework's own.
// See packages/adapters/openai-agents/src/descriptor.ts and install.ts in the suite's repository for a whole one.
import { AdapterInputError, CONTRACT_VERSION, type FrameworkDescriptor } from '@approval-conformance/core/kit';
import { repro } from './repro.js';

/** The toy's one version (runtime.ts's VERSION, written here too so that listing frameworks imports nothing more). */
const VERSION = '0.1.0';

export const descriptor: FrameworkDescriptor = {
  contractVersion: CONTRACT_VERSION,
  name: '__NAME__',
  pinned: [VERSION],
  oldest: VERSION,
  defaults: () => [VERSION],
  async shape() {
    const { adapter } = await import('./adapter.js');
    return { wirings: adapter.wirings.map((w) => w.id), stores: adapter.stores };
  },
  async load(version) {
    const { adapter } = await import('./adapter.js');
    if (version !== adapter.version) {
      throw new AdapterInputError(`__NAME__ is only available at version ${adapter.version} (it is built in), not '${version}'.`);
    }
    return { adapter, packages: {} };
  },
  repro,
};
