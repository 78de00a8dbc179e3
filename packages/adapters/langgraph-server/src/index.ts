export { langgraphServerAdapter, STORES } from './adapter.js';
export { PINNED_VERSIONS, pinnedLib, pinnedLibIfPresent, type ServerLib } from './lib.js';
export { detectFeatures, type Features } from './features.js';
export { WIRINGS } from './wirings.js';
export { FIRST_IN_PROCESS, installedLib } from './install.js';
