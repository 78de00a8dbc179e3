// @approval-conformance/testkit: helpers for the workspace's own tests and benches. Private and never published:
// what is here may reach into the repository (scripts/), which an installed package does not have.
export { skipStore, testPostgres } from './postgres.js';
