export { langgraphAdapter } from './adapter.js';
export { PINNED_VERSIONS, pinnedLib, pinnedLibIfPresent, type LangGraphLib } from './lib.js';
export { cacheRoot, InstallError, installedLib } from './install.js';
export { detectFeatures, type Features } from './features.js';
export { WIRINGS } from './wirings.js';
