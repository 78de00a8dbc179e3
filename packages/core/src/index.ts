// @approval-conformance/core: the contract. It knows no framework.
export * from './history/index.js';
export { Recorder } from './history/recorder.js';
export * from './properties/index.js';
export * from './model/index.js';
export * from './scheduler/index.js';
export * from './fakes/index.js';
export * from './scenarios/index.js';
export * from './explore/index.js';
export type * from './adapter.js';
export { wiringInfo } from './adapter.js';
export * from './install/npm.js';
export { isMissingPackage, optionalPackage } from './install/optional.js';
export { WORKER_TAG_ENV, worldNamePrefix } from './server-names.js';
export * from './guarded/index.js';
export * from './app-record/index.js';
