// A gate is an await point in the subject's code that the scheduler holds until it chooses to release it.
// Between gates the subject's code runs untouched.
import type { HistoryEvent } from '../history/events.js';

/**
 * What the code after a gate touches, up to the turn's next gate. Used only to decide which releases commute
 * (`independent`).
 *
 * The key names the shared thing, and its part before the first `:` says what kind of thing it is, which is what
 * decides what commutes with what:
 * - `record`: the durable record of approvals (`record:a1`, `record:checkpoints`, `record:chat-1`): a checkpoint
 *   store, a transcript, an approval row. Its reads and writes are reported as `record-read` and `record-write`.
 * - `world`: the tool backend. A write there is an `effect`.
 * - `fingerprint`: the world's fingerprint, which a proposal records; only a scenario changes it, between turns.
 * - `proposal`: the model's proposals (`proposed`), and the counter that names them.
 * - `card` and `tell`: the client's connections, as confirmation cards (`delivery`) and disclosures (`disclosure`).
 * - `guard`: the approval guard's record (`guard:a1`) in `guarded-*` wirings: the approvals' record, as `record` is.
 * - `app`: application state the properties never see (`app:checkpoints`): a framework's store where the guard's
 *   record is the approvals' record. The code after such a gate records no event at all.
 * - `sequence`: a counter or clock the code draws values from, whose order orders what they name
 *   (`sequence:clock`, see `clock.ts`): two draws from one never commute.
 * - any other kind (`lock:a1`): its writes commute with nothing but reads of other kinds.
 */
export interface Access {
  readonly key: string;
  readonly mode: 'read' | 'write';
  /**
   * The access touches only the part of the record its key names, and the events it records (reads, writes, and
   * their versions) are about that part's approvals alone: a read of one such part then commutes with another turn's
   * write of another (Mastra keeps each run in rows of its own). Leave it out where a read may see other parts.
   */
  readonly exact?: boolean;
  /**
   * A compare-and-set's write (the guard's `replace`): it writes only when it wins, and then records a `record-write`;
   * one that lost wrote nothing and recorded a read. A release that recorded no `record-write` only read this key,
   * and commutes as a read (`accessesMade`): two spends that both lost to a third are two reads. Declare it only where
   * every write the code makes is recorded; the check of declarations holds a release that lost to a read.
   */
  readonly conditional?: boolean;
  /**
   * A write of application state (`app`) whose code does the same whatever the part held: an append, an upsert, a
   * delete. What it leaves there may depend on what was there, but nothing else it does: not what it returns, reads
   * elsewhere, records, or where its turn goes next. Two such writes of a part by different turns are then told apart
   * only by a later read of the part: in a finished run where no release after them reads it, their order shows
   * nowhere, and source sets do not reverse it (`HappensBefore.unobserved`). Declare it only where that holds of the
   * store's own code; on other kinds of key it is ignored.
   */
  readonly blind?: boolean;
}

/**
 * What a release's code did of what its gate declared: a conditional write (`Access.conditional`) whose release
 * recorded no `record-write` lost, and was a read.
 */
export function accessesMade(declared: readonly Access[], produced: readonly HistoryEvent[]): readonly Access[] {
  if (!declared.some((a) => a.conditional === true) || produced.some((e) => e.kind === 'record-write')) return declared;
  return declared.map(({ conditional, ...a }) => (conditional === true ? { ...a, mode: 'read' } : a));
}

export interface GateOptions {
  /**
   * What the code released by this gate touches before the turn's next gate. Leave it out when unsure: a gate
   * without accesses is treated as dependent on every other, which is always sound, only slower. The declaration is
   * a promise about everything that code does: a gate whose accesses are all reads changes nothing shared and records
   * nothing but reads; a `card` or `tell` gate changes nothing but the client's connection (and records only the
   * delivery or disclosure); a `world` gate nothing but the backend.
   */
  readonly access?: readonly Access[];
  /**
   * A turn's operations take effect in the order it issued them, as they do over a store whose calls complete in
   * order (an in-memory map, SQLite): a gate is released only after every earlier gate of its turn. Set this for an
   * operation that may complete before earlier ones of its own turn (a query on a pooled async connection).
   */
  readonly overtakes?: boolean;
  /**
   * For an adversary's decision (the model's scripted alternatives): how many alternatives there are. The gate
   * resolves with the chosen index. Leave out for an ordinary gate, which resolves with 0.
   */
  readonly choices?: number;
}

/** Route an await through the scheduler: `await gate('t1', 'store.read(a1)', { access: [...] })`. */
export type GateFn = (turn: string, label: string, options?: GateOptions) => Promise<number>;

/** A gate waiting to be released, as the selector sees it. */
export interface PendingGate {
  /** `t1:3`: the turn and the gate's ordinal within the turn, stable across replays of a deterministic subject. */
  readonly id: string;
  readonly turn: string;
  readonly label: string;
  readonly access: readonly Access[] | undefined;
  readonly choices: number;
  readonly overtakes: boolean;
  /** The process may die here, instead of releasing the gate (once per run, for a turn spawned crashable). */
  readonly crashable: boolean;
  /**
   * How many releases had been made when the turn reached this gate. The gate appeared in the quiet after that
   * release, so that release (or, at 0, the start) is what let the turn get here: it happens before this one.
   */
  readonly reachedAfter: number;
}

/** One release: which gate, and for an adversary decision, which alternative; or the process dying at the gate. */
export interface Release {
  readonly gate: string;
  readonly choice: number;
  readonly crash?: true;
}

/** One release of a run: the gate released (or died at), as it was then, how, and what it led to. */
export interface Released {
  readonly gate: PendingGate;
  readonly release: Release;
  /** The events recorded after this release and before the next one: what the released code did. */
  readonly produced: readonly HistoryEvent[];
  /**
   * What the released code was seen to touch beyond what its gate declared: the clock (`CLOCK`), if it read it, and
   * what it declared where it happened (`WorldEnv.declare`).
   */
  readonly touched?: readonly Access[];
  /**
   * Set when code other than the released turn's ran in the release's quiet (a turn it woke, the scenario's tail
   * after a join): what it was. Such a release is dependent with every other (`attribution.ts`).
   */
  readonly foreign?: string;
}
