// Second opinions: each property written again, as plainly as possible and by a different route than the predicate
// (sets and counts instead of a scan, every prefix replayed, structural equality instead of canonical JSON). They only
// say whether the property holds; the property tests compare them with the predicates on random histories.
import type { Action, History, HistoryEvent } from '../history/events.js';
import type { PropertyId } from './ids.js';

type Oracle = (history: History) => boolean;
type OfKind<K extends HistoryEvent['kind']> = Extract<HistoryEvent, { kind: K }>;

const ofKind =
  <K extends HistoryEvent['kind']>(kind: K) =>
  (event: HistoryEvent): event is OfKind<K> =>
    event.kind === kind;

const appliedEffects = (history: History) => history.filter(ofKind('effect')).filter((e) => e.applied);

function countBy<T>(items: readonly T[], key: (item: T) => string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const item of items) counts.set(key(item), (counts.get(key(item)) ?? 0) + 1);
  return counts;
}

const noneReaches2 = (counts: Map<string, number>) => [...counts.values()].every((n) => n < 2);

/** Structural equality where object key order does not matter and array order does. */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => deepEqual(x, b[i]));
  }
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  return (
    ka.length === kb.length &&
    ka.every((k) => Object.hasOwn(b, k) && deepEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]))
  );
}

const sameAction = (a: Action, b: Action) => deepEqual(a, b);

const atMostOnce: Oracle = (history) => {
  const pairs = new Set(appliedEffects(history).map((e) => JSON.stringify([e.approvalId, e.dispatch])));
  return noneReaches2(countBy([...pairs], (pair) => (JSON.parse(pair) as string[])[0] ?? ''));
};

const exactlyOnceDelivery: Oracle = (history) => noneReaches2(countBy(appliedEffects(history), (e) => e.approvalId));

// The TLA+ way: evaluate the invariant in the state after every step.
const noResurrection: Oracle = (history) =>
  history.every((_, i) => {
    const prefix = history.slice(0, i + 1);
    return appliedEffects(prefix).every((e) => {
      const log = prefix.filter(ofKind('record-write')).filter((w) => w.approvalId === e.approvalId).at(-1)?.state;
      return log === 'spent';
    });
  });

const freshView: Oracle = (history) =>
  history.every((event, i) => {
    if (event.kind !== 'effect') return true;
    const before = history.slice(0, i);
    const mine = (e: { actor: string; approvalId: string }) => e.actor === event.actor && e.approvalId === event.approvalId;
    const writes = before.filter(ofKind('record-write')).filter((w) => w.approvalId === event.approvalId);
    const latestSpend = writes.filter((w) => w.from === 'unspent' && w.state === 'spent').at(-1);
    if (latestSpend === undefined || latestSpend.actor === event.actor) return true;
    const seen = [
      before.filter(ofKind('record-read')).filter(mine).at(-1)?.version,
      writes.filter((w) => w.conditional === true && mine(w)).at(-1)?.version,
    ].filter((v) => v !== undefined);
    return seen.length > 0 && Math.max(...seen) >= latestSpend.version;
  });

const binding: Oracle = (history) =>
  history.every((event, i) => {
    if (event.kind !== 'effect' || !event.requiresApproval) return true;
    const before = history.slice(0, i);
    const approval = before.filter(ofKind('approve')).filter((a) => a.by === 'human' && a.approvalId === event.approvalId).at(-1);
    if (approval === undefined) return true;
    const card = before.filter(ofKind('proposed')).filter((p) => p.approvalId === event.approvalId).at(-1);
    return sameAction(approval.action, event.action) && (card === undefined || card.world === event.world);
  });

const shownIsRecorded: Oracle = (history) =>
  history.every((event, i) => {
    if (event.kind === 'delivery') return event.live;
    if (event.kind !== 'approve' || event.by !== 'human') return true;
    const before = history.slice(0, i);
    const shown = before.filter(ofKind('delivery')).some((d) => d.live && d.approvalId === event.approvalId);
    const held = before.filter(ofKind('record-write')).filter((w) => w.approvalId === event.approvalId).at(-1)?.state;
    return shown && held === 'unspent';
  });

const disclosure: Oracle = (history) =>
  [...new Set(appliedEffects(history).map((e) => e.approvalId))].every((id) => {
    const first = history.findIndex((e) => e.kind === 'effect' && e.applied && e.approvalId === id);
    const told = history.slice(first + 1).filter(ofKind('disclosure')).filter((d) => d.approvalId === id);
    return told.some((d) => d.says === 'happened') && !told.some((d) => d.says === 'not-happened');
  });

const integrity: Oracle = (history) =>
  history.every((event, i) => {
    if (event.kind !== 'effect') return true;
    const forged = history.slice(0, i).filter(ofKind('approve')).some((a) => a.by === 'forged' && a.approvalId === event.approvalId);
    if (!event.requiresApproval && !forged) return true;
    const approvals = history
      .slice(0, i)
      .filter(ofKind('approve'))
      .filter((a) => a.by === 'human' && a.approvalId === event.approvalId);
    const last = approvals.at(-1);
    // A denial after the last approval (or with none) forbids it.
    const lastApproval = last === undefined ? -1 : history.lastIndexOf(last, i);
    const deniedAfter = history.slice(lastApproval + 1, i).some((e) => e.kind === 'deny' && e.approvalId === event.approvalId);
    // An expiry is final: no approval after it counts.
    const expired = history.slice(0, i).some((e) => e.kind === 'deny' && e.expired === true && e.approvalId === event.approvalId);
    return last !== undefined && !deniedAfter && !expired && sameAction(last.action, event.action);
  });

export const ORACLES: Readonly<Record<PropertyId, Oracle>> = {
  'at-most-once': atMostOnce,
  'no-resurrection': noResurrection,
  'fresh-view': freshView,
  binding,
  'shown-is-recorded': shownIsRecorded,
  disclosure,
  'exactly-once-delivery': exactlyOnceDelivery,
  integrity,
};
