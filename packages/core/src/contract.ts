// @approval-conformance/core/contract: what a run is judged by, and what an adapter promises. The history and its
// events, the eight properties, the design model, the scenarios, and the adapter interface with the gate it calls:
// an adapter imports this and the kit (`./kit`), never the explorer (`./explorer`).
export * from './history/index.js';
export { Recorder } from './history/recorder.js';
export * from './properties/index.js';
export * from './model/index.js';
export * from './scenarios/index.js';
export type * from './adapter.js';
export { wiringInfo } from './adapter.js';
// The gate is the one meeting point of an adapter and the scheduler: its type and what it declares, not the scheduler.
export type { Access, GateFn, GateOptions } from './scheduler/gate.js';
