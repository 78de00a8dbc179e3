// @approval-conformance/adapter-dbos: DBOS Transact's human-in-the-loop under the suite.
export { dbosAdapter, STORES } from './adapter.js';
export { pinnedLib, pinnedLibIfPresent, PINNED_VERSION, loadFrom, type DbosLib } from './lib.js';
export { installedLib, InstallError, OLDEST } from './install.js';
export { WIRINGS } from './wirings.js';
export { NO_SERVER, postgresUrl } from './database.js';
