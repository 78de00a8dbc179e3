// A release's declaration, checked against what its code was seen to do. A gate declares what the code after it
// touches until its turn's next gate (`Access`), and the explorer runs one order of releases whose declarations
// commute: a declaration that leaves something out hides schedules, silently. Three things show what the code did:
// - the events it recorded: a record read or write, an effect, a card, a disclosure, a proposal each need an access
//   of their kind (`NEEDS`);
// - the store calls it made, which the store wrappers report (`WorldEnv.accessed`), gated or not;
// - where the world can read its state back cheaply (`World.contents`), the keys whose contents changed.
// A release whose code did more than its gate declared (or than it declared where it happened, `WorldEnv.declare`)
// makes the cell `error`, naming the release and what it touched. A release that carried another turn's code
// (`attribution.ts`) is not judged here: it is dependent with everything instead.
import type { HistoryEvent } from '../history/events.js';
import { codeOf } from './attribution.js';
import { CLOCK } from './clock.js';
import { accessesMade, type Access, type PendingGate, type Release } from './gate.js';

/** Something the code did, and whose code did it. */
export interface Seen<T> {
  readonly what: T;
  readonly context: string | undefined;
}

/** A store call as a wrapper reported it: the access, and the call, for messages (`getWorkflowRunById(run-1)`). */
export interface ReportedAccess {
  readonly access: Access;
  readonly call?: string;
}

/** Everything known of one release once its code has run. */
export interface StepWork {
  readonly gate: PendingGate;
  readonly release: Release;
  /** The context the gate's code runs in: the one that reached it. */
  readonly context: string | undefined;
  readonly events: readonly Seen<HistoryEvent>[];
  readonly accessed: readonly Seen<ReportedAccess>[];
  /** Accesses declared where they happened (`WorldEnv.declare`). */
  readonly declared: readonly Seen<Access>[];
  readonly readClock: boolean;
  /** Keys whose contents the release changed, where the world can say (`World.contents`). */
  readonly changed: readonly string[];
  /** Keys the store may change with no call seen (`World.changesInPlace`): a change is a write, not a report. */
  readonly inPlace?: (key: string) => boolean;
}

export interface StepJudgement {
  /** What the release touched beyond its gate's declaration: the clock, and what it declared where it happened. */
  readonly touched: readonly Access[];
  /** Why the release carried another context's work, if it did. */
  readonly foreign?: string;
  /** What the release did that nothing declared, one sentence each. */
  readonly undeclared: readonly string[];
}

/** The kinds of access an event of each kind needs, and whether a write. */
const NEEDS: Partial<Record<HistoryEvent['kind'], { readonly kinds: readonly string[]; readonly write: boolean; readonly what: string }>> = {
  'record-read': { kinds: ['record', 'guard'], write: false, what: 'read the record' },
  'record-write': { kinds: ['record', 'guard'], write: true, what: 'wrote the record' },
  effect: { kinds: ['world'], write: true, what: 'applied an effect' },
  delivery: { kinds: ['card'], write: true, what: 'delivered a card' },
  disclosure: { kinds: ['tell'], write: true, what: 'told the user' },
  proposed: { kinds: ['proposal'], write: true, what: 'recorded a proposal' },
};

const kindOf = (key: string) => key.split(':', 1)[0]!;

/** Whether `declared` covers `access`: the same key, and a write where it writes. */
export const covers = (declared: readonly Access[], access: Access) =>
  declared.some((d) => d.key === access.key && (d.mode === 'write' || access.mode === 'read'));

const describe = (accesses: readonly Access[]) => (accesses.length === 0 ? 'nothing' : accesses.map((a) => `${a.key} ${a.mode}`).join(', '));

/** Events name their approval: `record-read of a1`. */
const eventText = (e: HistoryEvent) => `${e.kind}${'approvalId' in e ? ` of ${e.approvalId}` : ''}`;

export function judgeStep(work: StepWork): StepJudgement {
  // A change seen in place touched exactly the part its key names: that is what was compared.
  const inPlace = work.changed.filter((key) => work.inPlace?.(key)).map((key): Access => ({ key, mode: 'write', exact: true }));
  const touched = [...(work.readClock ? [CLOCK] : []), ...work.declared.map((d) => d.what), ...inPlace];
  // A crash runs none of the turn's code: what runs is the scenario's restart, and a crash commutes with nothing.
  if (work.release.crash) return { touched, undeclared: [] };
  const other = (seen: Seen<unknown>) => seen.context !== work.context;
  const event = work.events.find(other);
  if (event) return { touched, foreign: `${codeOf(event.context)} recorded ${eventText(event.what)}`, undeclared: [] };
  const call = work.accessed.find(other);
  if (call) return { touched, foreign: `${codeOf(call.context)} touched ${call.what.access.key}`, undeclared: [] };
  const declaration = work.declared.find(other);
  if (declaration) return { touched, foreign: `${codeOf(declaration.context)} touched ${declaration.what.key}`, undeclared: [] };
  // A gate that declares nothing is dependent with everything: nothing it does can be hidden.
  if (work.gate.access === undefined) return { touched, undeclared: [] };
  // A compare-and-set that lost is held to a read: the explorer commutes it as one.
  const gateAccess = accessesMade(work.gate.access, work.events.map((e) => e.what));
  // A change seen in place excuses only itself: calls and events are held to what was declared.
  const declared = [...gateAccess, ...touched.filter((a) => !inPlace.includes(a))];
  const undeclared: string[] = [];
  const where = `${work.gate.id} ${work.gate.label}`;
  const lost = gateAccess !== work.gate.access ? ' (a compare-and-set that recorded no write: a read)' : '';
  const but = `, but its gate declares ${describe(gateAccess)}${lost}`;
  for (const { what: event } of work.events) {
    const need = NEEDS[event.kind];
    if (need && !declared.some((d) => need.kinds.includes(kindOf(d.key)) && (d.mode === 'write' || !need.write))) {
      undeclared.push(`${where} ${need.what} (${eventText(event)})${but}`);
    }
  }
  for (const { what } of work.accessed) {
    if (!covers(declared, what.access)) {
      undeclared.push(`${where} ${what.access.mode === 'write' ? 'wrote' : 'read'} ${what.access.key}${what.call ? ` (${what.call})` : ''}${but}`);
    }
  }
  for (const key of work.changed) {
    if (!covers([...declared, ...inPlace], { key, mode: 'write' })) undeclared.push(`${where} changed ${key}${but}`);
  }
  return { touched, undeclared: [...new Set(undeclared)] };
}
