export { langgraphAdapter } from './adapter.js';
export { PINNED_VERSIONS, pinnedLib, pinnedLibIfPresent, type LangGraphLib } from './lib.js';
export { cacheRoot, InstallError, installedLib } from './install.js';
export { detectFeatures, type Features } from './features.js';
export { WIRINGS } from './wirings.js';
// What the LangGraph server's adapter reuses: the same graph, the same gated saver, the same reading of the record.
export { buildGraph, buildParallelGraph, followUpId, type GraphShape } from './graph.js';
export { gatedSaverClass, newSaverBook, saverContents, TURN_KEY, type Config, type SaverBook } from './gated-saver.js';
export { approvalState, pendingApprovals, type TupleLike } from './record.js';
export type { Module } from './lib.js';
export { discloseEach, discloseEffects, interruptsFor, pendingOf, resumeOf, showCards, told, type Interrupt } from './app.js';
