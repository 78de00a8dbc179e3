// @approval-conformance/adapter-mastra: Mastra under the suite.
export { mastraAdapter } from './adapter.js';
export { pinnedLib, pinnedLibIfPresent, PINNED_VERSIONS, type MastraLib, type PinnedLine } from './lib.js';
export { detectFeatures, type Features } from './features.js';
export { WIRINGS } from './wirings.js';
export { installedLib, InstallError, localLib, OLDEST } from './install.js';
export { STORES } from './stores.js';
