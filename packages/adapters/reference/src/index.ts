export { referenceAdapter, STORES } from './adapter.js';
export { WIRINGS, WIRING_INFO } from './wirings.js';
export { ReferenceRuntime } from './runtime.js';
export { MemoryStore } from './memory-store.js';
export { SqliteStore } from './sqlite-store.js';
export type { ApprovalStore, StoredApproval } from './store.js';
