// @approval-conformance/guard: spend an approval atomically, before acting, from a view no older than the last spend.
export { ApprovalGuard, type Card, type Ticket, type World } from './guard.js';
export { GuardError, type GuardErrorCode } from './errors.js';
export { canonicalJson, fingerprint, type GuardedAction } from './fingerprint.js';
export type { ApprovalRecord, ApprovalState, Outcome } from './record.js';
export type { GuardStore } from './store.js';
export { MemoryGuardStore } from './memory.js';
