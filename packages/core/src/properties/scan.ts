// Helpers the predicates share: finding earlier events of one kind, and the words for record states and lists.
import type { History, HistoryEvent, RecordState } from '../history/events.js';

/** An event together with its index in the history, so witnesses can point at it. */
export interface At<E extends HistoryEvent> {
  readonly index: number;
  readonly event: E;
}

type OfKind<K extends HistoryEvent['kind']> = Extract<HistoryEvent, { kind: K }>;

/** The last event of `kind` strictly before index `end` that satisfies `test`. */
export function lastBefore<K extends HistoryEvent['kind']>(
  history: History,
  end: number,
  kind: K,
  test: (event: OfKind<K>) => boolean,
): At<OfKind<K>> | undefined {
  for (let index = Math.min(end, history.length) - 1; index >= 0; index--) {
    const event = history[index];
    if (event?.kind === kind && test(event as OfKind<K>)) return { index, event: event as OfKind<K> };
  }
  return undefined;
}

/** Every event of `kind` strictly before index `end` that satisfies `test`, in history order. */
export function allBefore<K extends HistoryEvent['kind']>(
  history: History,
  end: number,
  kind: K,
  test: (event: OfKind<K>) => boolean,
): At<OfKind<K>>[] {
  const found: At<OfKind<K>>[] = [];
  for (const [index, event] of history.slice(0, end).entries()) {
    if (event.kind === kind && test(event as OfKind<K>)) found.push({ index, event: event as OfKind<K> });
  }
  return found;
}

/** `unspent (v1)`, or for a record that never held the approval, `absent`. */
export function describeRecord(state: RecordState, version: number | undefined): string {
  return version === undefined ? state : `${state} (v${version})`;
}

/** `a`, `a and b`, `a, b and c`. */
export function joinAnd(words: readonly string[]): string {
  if (words.length <= 1) return words.join('');
  return `${words.slice(0, -1).join(', ')} and ${words[words.length - 1]}`;
}
