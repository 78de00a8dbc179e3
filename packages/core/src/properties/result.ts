// What a property says about one history. A violation carries the events that show it (the witness) and a sentence a
// person can check against the story, so a report never has to say just "failed".
import type { PropertyId } from './ids.js';

export interface PropertyResult {
  readonly property: PropertyId;
  readonly holds: boolean;
  /** Indices into the history, ascending, without repeats; empty when the property holds. */
  readonly witness: readonly number[];
  /** '' when it holds; otherwise one or two sentences naming the actors, the approval and the record versions. */
  readonly explanation: string;
}

export function holds(property: PropertyId): PropertyResult {
  return { property, holds: true, witness: [], explanation: '' };
}

/** Sorts and de-duplicates the witness, so callers may list events in the order the explanation tells them. */
export function violated(property: PropertyId, witness: readonly number[], explanation: string): PropertyResult {
  return { property, holds: false, witness: [...new Set(witness)].sort((a, b) => a - b), explanation };
}
