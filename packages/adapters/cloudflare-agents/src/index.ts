// @approval-conformance/adapter-cloudflare-agents: Cloudflare Agents (AIChatAgent + needsApproval) under the suite.
export { cloudflareAgentsAdapter, frameworkVersions, STORES, WIRED, WIRINGS } from './adapter.js';
export { stopRuntime } from './runtime.js';
export { choosePartners, installedTree, OLDEST, partnersFor, versionedAdapter, type Partners, type Release } from './versions.js';
export { features, lacking, signedLacking, type Features } from './compat.js';
export type { InstalledTree } from './bundle.js';
