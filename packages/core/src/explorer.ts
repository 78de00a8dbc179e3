// @approval-conformance/core/explorer: the gate scheduler and the exploration of a cell (exhaustive, sampled,
// replay). The runner and the tests use it; an adapter never does (its build refuses the import).
export * from './scheduler/index.js';
export * from './explore/index.js';
