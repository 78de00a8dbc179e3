// The approval guard's store as the explorer sees it: every call is a gate, so the guard's reads and its
// compare-and-set interleave with the runtime's own steps and with other turns. With the guard, the guard's record is
// the approval's durable record (the one that says spent before the action runs), so its reads and writes are what
// the history reports as record-read and record-write; the runtime's own store is then ordinary app state, still
// gated but not reported (see GatedStore's `report`). Approved and unspent both read `unspent` to the properties:
// not spent yet. A read of the guard's record is followed, in a spend, by a read of the world's fingerprint (is the
// world still the one the action was approved in?), so reads declare that too.
import type { Recorder } from '../history/recorder.js';
import type { RecordState } from '../history/events.js';
import type { Access, GateFn } from '../scheduler/gate.js';
import type { ApprovalRecord, GuardStore } from '@approval-conformance/guard';

type Io = <T>(work: T | Promise<T>) => Promise<T>;

export class GatedGuardStore implements GuardStore {
  readonly #store: GuardStore;
  readonly #gate: GateFn;
  readonly #io: Io;
  readonly #history: Recorder;
  /** The turn whose calls these are: the runtime makes one GatedGuardStore view per turn (see `forTurn`). */
  readonly #turn: string;

  constructor(store: GuardStore, gate: GateFn, io: Io, history: Recorder, turn = 't0') {
    this.#history = history;
    this.#store = store;
    this.#gate = gate;
    this.#io = io;
    this.#turn = turn;
  }

  /** The same store, its calls gated as `turn`'s. */
  forTurn(turn: string): GatedGuardStore {
    return new GatedGuardStore(this.#store, this.#gate, this.#io, this.#history, turn);
  }

  async insert(record: ApprovalRecord): Promise<boolean> {
    await this.#gate(this.#turn, `guard.insert(${record.id})`, { access: access(record.id, 'write') });
    const inserted = await this.#io(this.#store.insert(record));
    if (inserted) this.#written(record.id, 'absent', record);
    return inserted;
  }

  async get(id: string): Promise<ApprovalRecord | undefined> {
    await this.#gate(this.#turn, `guard.get(${id})`, { access: [...access(id, 'read'), { key: 'fingerprint', mode: 'read' }] });
    const found = await this.#io(this.#store.get(id));
    this.#history.emit({ kind: 'record-read', actor: this.#turn, approvalId: id, version: found?.version ?? 0, state: guardRecordState(found) });
    return found;
  }

  async replace(next: ApprovalRecord, expected: number): Promise<boolean> {
    // A compare-and-set: one that loses writes nothing and records a read, and commutes as a read (`conditional`).
    await this.#gate(this.#turn, `guard.replace(${next.id}, v${expected} -> ${next.state})`, {
      access: access(next.id, 'write').map((a) => ({ ...a, conditional: true })),
    });
    // What it replaces, read in the same release (no other turn runs in between), for the history's `from`.
    const before = await this.#io(this.#store.get(next.id));
    const replaced = await this.#io(this.#store.replace(next, expected));
    if (replaced) this.#written(next.id, guardRecordState(before), next, true);
    // A compare-and-set that lost wrote nothing, but it did read the record.
    else this.#history.emit({ kind: 'record-read', actor: this.#turn, approvalId: next.id, version: before?.version ?? 0, state: guardRecordState(before) });
    return replaced;
  }

  #written(id: string, from: RecordState, record: ApprovalRecord, conditional = false): void {
    this.#history.emit({
      kind: 'record-write',
      actor: this.#turn,
      approvalId: id,
      version: record.version,
      from,
      state: guardRecordState(record),
      ...(conditional ? { conditional: true } : {}),
    });
  }
}

/** Spent is spent; unspent and approved are not spent yet; denied and expired can never be spent again. */
export function guardRecordState(record: ApprovalRecord | undefined): RecordState {
  if (record === undefined) return 'absent';
  return record.state === 'unspent' || record.state === 'approved' ? 'unspent' : 'spent';
}

// The guard's record: an approvals' record (its reads and writes are reported as record-read and record-write), in a
// store of its own beside the framework's, so the explorer commutes it as both (see `guard` in scheduler/commute.ts).
const access = (id: string, mode: Access['mode']): Access[] => [{ key: `guard:${id}`, mode }];
