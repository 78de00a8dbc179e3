// DBOS Transact as the runner knows it: a version is @dbos-inc/dbos-sdk's, from the first the adapter drives to the
// newest, which is pinned in the workspace. Every cell runs on PostgreSQL.
import { dbosRepro } from './repro/index.js';
import { AdapterInputError, CONTRACT_VERSION, loadedPackages, notPinnedHere, stable, type FrameworkDescriptor } from '@approval-conformance/core/kit';

const PACKAGES = ['@dbos-inc/dbos-sdk', 'pg'];

export const descriptor: FrameworkDescriptor = {
  contractVersion: CONTRACT_VERSION,
  name: 'dbos',
  npm: '@dbos-inc/dbos-sdk',
  pinned: ['5.3.0'],
  oldest: '4.24.16',
  // Every cell runs on PostgreSQL: the runner gives the workers a server (APPROVAL_CONFORMANCE_POSTGRES).
  server: 'postgres',
  defaults: (releases) => {
    const all = stable(releases);
    return all.slice(-1);
  },
  async shape() {
    const { WIRINGS, STORES } = await import('./index.js');
    return { wirings: WIRINGS.map((w) => w.id), stores: [...STORES] };
  },
  async load(version, log) {
    const m = await import('./index.js');
    if (!m.postgresUrl()) throw new AdapterInputError(m.NO_SERVER);
    const pinned = version === m.PINNED_VERSION ? await m.pinnedLibIfPresent() : undefined;
    if (version === m.PINNED_VERSION && pinned === undefined) log(notPinnedHere('dbos', version));
    const lib = pinned ?? (await m.installedLib(version, log));
    return { adapter: m.dbosAdapter(lib), ...loadedPackages(lib.dir, PACKAGES) };
  },
  repro: dbosRepro,
};
