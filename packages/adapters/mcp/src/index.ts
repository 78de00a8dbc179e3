// @approval-conformance/adapter-mcp: the Model Context Protocol's elicitation under the suite.
export { mcpAdapter, STORES } from './adapter.js';
export { pinnedLib, pinnedLibIfPresent, PINNED_VERSIONS, type LegacyLib, type McpLib, type MrtrLib, type PinnedLine } from './lib.js';
export { installedLib, InstallError, OLDEST } from './install.js';
export { WIRINGS } from './wirings.js';
