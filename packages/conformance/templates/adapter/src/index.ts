// The package's main entry: the descriptor (what the suite loads), and the adapter and the toy for tests and tools.
export { descriptor } from './descriptor.js';
export { adapter, STORES } from './adapter.js';
export { WIRINGS, type Wiring } from './wirings.js';
export * as runtime from './runtime.js';
