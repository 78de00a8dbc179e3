// The eight properties as pure predicates over a history, by id.
import type { History } from '../history/events.js';
import { atMostOnce } from './at-most-once.js';
import { binding } from './binding.js';
import { disclosure } from './disclosure.js';
import { exactlyOnceDelivery } from './exactly-once-delivery.js';
import { freshView } from './fresh-view.js';
import type { PropertyId } from './ids.js';
import { integrity } from './integrity.js';
import { noResurrection } from './no-resurrection.js';
import type { PropertyResult } from './result.js';
import { shownIsRecorded } from './shown-is-recorded.js';

export * from './ids.js';
export { holds, violated, type PropertyResult } from './result.js';
export {
  atMostOnce,
  binding,
  disclosure,
  exactlyOnceDelivery,
  freshView,
  integrity,
  noResurrection,
  shownIsRecorded,
};

export const PROPERTIES: Readonly<Record<PropertyId, (history: History) => PropertyResult>> = {
  'at-most-once': atMostOnce,
  'no-resurrection': noResurrection,
  'fresh-view': freshView,
  binding,
  'shown-is-recorded': shownIsRecorded,
  disclosure,
  'exactly-once-delivery': exactlyOnceDelivery,
  integrity,
};

export function checkProperty(id: PropertyId, history: History): PropertyResult {
  return PROPERTIES[id](history);
}
