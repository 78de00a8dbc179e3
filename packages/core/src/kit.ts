// @approval-conformance/core/kit: what an adapter builds a world with. The fakes (the model, the tool backend, the
// client connections), the guard's gated records and guarded apps, the app records, the isolated installs of a
// framework's versions, and the names a world's server-side resources take.
export * from './fakes/index.js';
export * from './guarded/index.js';
export * from './app-record/index.js';
export * from './install/npm.js';
export { isMissingPackage, optionalPackage } from './install/optional.js';
export { WORKER_TAG_ENV, worldNamePrefix } from './server-names.js';
export * from './descriptor/index.js';
/** The virtual time of the code running now (a run on a virtual clock: `late-answer`), or undefined: no time passes. */
export { fakeNow as virtualNow } from './scheduler/timers.js';
