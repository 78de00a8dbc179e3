export type {
  Action,
  Actor,
  Approve,
  Claim,
  Crash,
  Delivery,
  Disclosure,
  Effect,
  History,
  HistoryEvent,
  Proposed,
  RecordRead,
  RecordState,
  RecordWrite,
  Tamper,
} from './events.js';
export { actionDifferences, actionsEqual, canonicalJson, formatAction, type ActionPart } from './action.js';
export { narrate } from './narrate.js';
export { story } from './story.js';
