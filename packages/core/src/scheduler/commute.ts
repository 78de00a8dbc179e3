// Which releases commute: two releases of different turns that, run in either order, leave the same state and give
// every property the same result (with the same witness, for a property judged at an event). The explorer runs one
// order of such releases; everything else it runs in every order.
//
// Each gate declares what the code after it touches until its turn's next gate (`Access`), and each release carries
// the events it recorded. Two things make two releases commute:
// 1. They touch disjoint state, or both only read. The kinds of state are disjoint by construction: the record store,
//    the tool backend, the client's connections, the world's fingerprint and the proposals share nothing. A
//    sequence the code draws from is state of its own, read and written at each draw: the order of two draws is the
//    order of the values they get (LangGraph names checkpoints from the clock, and its latest checkpoint is the one
//    made last), so draws from one sequence never commute. A release that read the clock says so in `touched`
//    (`clock.ts`), whatever its gate declared.
// 2. No property looks at the order of the events they record. The properties compare:
//    - effects with each other (at-most-once, exactly-once-delivery);
//    - an approval's effects with its record writes (no-resurrection: was it spent when the effect ran; fresh-view:
//      which spend came first), its proposals (binding: the action and world proposed) and its disclosures
//      (disclosure: was the user told "not happened" after the effect);
//    - record writes with each other, and with effects of their approval, but only in the properties that read the
//      record's history (no-resurrection, fresh-view); the others look at the record's last state at most
//      (shown-is-recorded, when the user acts, after the turns), so writes to different parts of the record, which
//      leave the same record in either order, commute where only those are checked;
//    - record reads with writes (a read's answer steers its turn), and with the reader's own later effects
//      (fresh-view);
//    - deliveries with the user's approvals, which the scenario records after its turns (shown-is-recorded); whether
//      a delivery is live depends on the connections, which a scenario changes only before its turns start;
//    - disclosures with effects only, and only at the end of the history (disclosure is judged at the end);
//    - proposals with effects, and with each other (the last proposal of an approval counts; proposals are named in
//      turn by the world).
// With the approval guard (`guarded-*` wirings), the guard's record (`guard:a1`) is the approvals' record, and commutes
// as the record does; the framework's own store is then application state (`app:checkpoints`), which records nothing
// the properties look at: it commutes with every other kind, and its writes to different parts with each other.
import type { HistoryEvent } from '../history/events.js';
import { accessesMade, type Access, type Released } from './gate.js';

/** What the properties being checked look at, beyond what every property may. */
export interface Scope {
  /** Some property compares events with each write of the record as it happened (`PropertyInfo.recordHistory`). */
  readonly recordHistory: boolean;
}

/** The scope that assumes every property is checked: always sound. */
export const EVERY_PROPERTY: Scope = { recordHistory: true };

/** The kind of a key: its part before the first `:` (`record:a1` is a `record`). */
const kindOf = (key: string) => {
  const colon = key.indexOf(':');
  return colon < 0 ? key : key.slice(0, colon);
};

/** The two kinds in sorted order, joined: the same string whichever order they come in. */
const pair = (a: string, b: string) => (a <= b ? `${a}|${b}` : `${b}|${a}`);

/**
 * Kinds whose accesses commute even when they write, by different turns. A delivery (`card`) is compared with
 * nothing a release records; a disclosure (`tell`) with effects only; a proposal with effects and proposals only.
 * Not `card` with `card`: two cards to a dead connection would swap which one is reported first.
 */
const ALWAYS = new Set([
  pair('card', 'record'),
  pair('card', 'world'),
  pair('card', 'tell'),
  pair('card', 'proposal'),
  pair('record', 'tell'),
  pair('tell', 'tell'),
  pair('proposal', 'record'),
  pair('proposal', 'tell'),
]);

/**
 * Kinds that commute with an effect unless they recorded something about the effect's own approval: the properties
 * compare an effect only with the record writes, proposals and disclosures of its approval, and an effect changes
 * nothing these releases read (the backend is theirs alone), so what each records is the same in either order.
 */
const UNLESS_SAME_APPROVAL: Readonly<Record<string, HistoryEvent['kind']>> = {
  record: 'record-write',
  proposal: 'proposed',
  tell: 'disclosure',
};

const approvalsOf = (events: readonly HistoryEvent[], kind: HistoryEvent['kind']) =>
  new Set(events.flatMap((e) => (e.kind === kind && 'approvalId' in e ? [e.approvalId] : [])));

/** The kind a key's accesses commute as: the guard's record as the record. */
const roleOf = (kind: string) => (kind === 'guard' ? 'record' : kind);

/** Whether access `x` of release `a` and access `y` of release `b` (another turn's) commute. */
function commute(x: Access, a: Released, y: Access, b: Released, scope: Scope): boolean {
  const [rawX, rawY] = [kindOf(x.key), kindOf(y.key)];
  if (x.mode === 'read' && y.mode === 'read') return true;
  // Draws from one sequence are ordered; a draw commutes with everything else.
  if (rawX === 'sequence' || rawY === 'sequence') return x.key !== y.key;
  // Application state records nothing: only its own accesses are ordered, a read of it with any write of it (a read
  // of the whole sees every part), and two writes of one part.
  // Parts declared exact are disjoint for reads too.
  if (rawX === 'app' || rawY === 'app') {
    return rawX !== rawY || (x.key !== y.key && ((x.mode === 'write' && y.mode === 'write') || (x.exact === true && y.exact === true)));
  }
  // Different things, one only read: disjoint state, and a read records nothing but record reads, which the
  // properties compare with record writes and with the reader's own effects.
  if (rawX !== rawY && (x.mode === 'read' || y.mode === 'read')) return true;
  const [kx, ky] = [roleOf(rawX), roleOf(rawY)];
  if (ALWAYS.has(pair(kx, ky))) return true;
  // A read and a write of different parts, each declared exact: neither sees the other's part. Writes to different
  // parts of the record, where no property checked reads its history.
  if (kx === 'record' && ky === 'record') {
    if (x.key !== y.key && x.exact === true && y.exact === true && (x.mode === 'read' || y.mode === 'read')) return true;
    return x.mode === 'write' && y.mode === 'write' && x.key !== y.key && !scope.recordHistory;
  }
  // An effect, and a record write, proposal or disclosure that recorded nothing about the effect's approval (a
  // record write, anything at all where no property checked reads the record's history).
  const [effect, other, otherKind] = kx === 'world' ? [a, b, ky] : [b, a, kx];
  const kind = UNLESS_SAME_APPROVAL[otherKind];
  if ((kx !== 'world' && ky !== 'world') || kind === undefined) return false;
  if (otherKind === 'record' && !scope.recordHistory) return true;
  const recorded = approvalsOf(other.produced, kind);
  return ![...approvalsOf(effect.produced, 'effect')].some((id) => recorded.has(id));
}

/**
 * Two releases commute when they are by different turns, neither is a crash, neither carried another context's code
 * (`foreign`), and every access of one commutes with every access of the other, for the properties in `scope`. A
 * gate that declares no access commutes with nothing.
 */
export function independent(a: Released, b: Released, scope: Scope = EVERY_PROPERTY): boolean {
  if (a.gate.turn === b.gate.turn || a.release.crash || b.release.crash) return false;
  // A release that carried another context's code (a turn it woke, the scenario's tail) commutes with nothing.
  if (a.foreign !== undefined || b.foreign !== undefined) return false;
  const [xs, ys] = [accessesOf(a), accessesOf(b)];
  if (xs === undefined || ys === undefined) return false;
  return xs.every((x) => ys.every((y) => commute(x, a, y, b, scope)));
}

/**
 * What a release touched: what its gate declared (a compare-and-set that lost, only a read: `accessesMade`), and what
 * its code was seen to touch besides.
 */
export const accessesOf = ({ gate, touched, produced }: Released): readonly Access[] | undefined => {
  if (gate.access === undefined) return undefined;
  const made = accessesMade(gate.access, produced);
  return touched?.length ? [...made, ...touched] : made;
};
