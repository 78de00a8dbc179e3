// @approval-conformance/core: the contract. It knows no framework.
// TMP export * from "./history/index.js';
// TMP export * from "./properties/index.js';
export * from './model/index.js';
