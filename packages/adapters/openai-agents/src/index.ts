// @approval-conformance/adapter-openai-agents: OpenAI Agents JS under the suite.
export { openaiAgentsAdapter } from './adapter.js';
export { pinnedLib, pinnedLibIfPresent, PINNED_VERSIONS, type AgentsLib, type PinnedLine } from './lib.js';
export { detectFeatures, type Features } from './features.js';
export { installedLib, InstallError, localLib, OLDEST } from './install.js';
export { WIRINGS } from './wirings.js';
