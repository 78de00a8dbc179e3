// @approval-conformance/adapter-ai-sdk: the Vercel AI SDK under the suite.
export { aiSdkAdapter } from './adapter.js';
export { pinnedLib, pinnedLibIfPresent, PINNED_VERSIONS, type AiLib, type PinnedLine } from './lib.js';
export { detectFeatures, type Features } from './features.js';
export { installedLib, InstallError, localLib, OLDEST } from './install.js';
export { WIRINGS } from './wirings.js';
