// The approval guard as adapters wire it into a framework (`guarded-*` wirings): its store's calls gated and reported
// as the approval's record, and the application's calls around the framework's own code.
export { GatedGuardStore } from './gated-guard-store.js';
export { GuardedApp, GuardedToolError, guardedAction, suiteAction, type GuardedOutcome } from './guarded-app.js';
export { memoryGuardRecords, postgresGuardRecords, sqliteGuardRecords, type GuardRecords } from './guard-records.js';
export { WorldGuard, type WorldGuardSnapshot } from './world-guard.js';
