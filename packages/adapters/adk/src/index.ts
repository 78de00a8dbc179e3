// @approval-conformance/adapter-adk: Google ADK for TypeScript under the suite.
export { adkAdapter, STORES } from './adapter.js';
export { pinnedLib, pinnedLibIfPresent, PINNED_VERSIONS, type AdkLib, type PinnedLine } from './lib.js';
export { detectFeatures, type Features } from './features.js';
export { installedLib, InstallError, OLDEST } from './install.js';
export { WIRINGS } from './wirings.js';
