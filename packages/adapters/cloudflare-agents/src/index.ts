// @approval-conformance/adapter-cloudflare-agents: Cloudflare Agents (AIChatAgent + needsApproval) under the suite.
export { cloudflareAgentsAdapter, frameworkVersions, STORES, WIRED, WIRINGS } from './adapter.js';
export { stopRuntime } from './runtime.js';
