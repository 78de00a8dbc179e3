// The store as the runtime sees it: every call is a gate (an await the scheduler holds), and every read and write is
// reported to the history with the record version it read or wrote.
import type { Access, Action, GateFn, Recorder } from '@approval-conformance/core/contract';
import type { ApprovalState, ApprovalStore, StoredApproval } from './store.js';

type External = <T>(work: Promise<T>) => Promise<T>;
type Accessed = (access: Access, call?: string) => void;

export class GatedStore {
  readonly #store: ApprovalStore;
  readonly #gate: GateFn;
  readonly #history: Recorder;
  /** A server's answer is awaited outside the gate: the scheduler waits for it (memory and SQLite answer at once). */
  readonly #io: <T>(work: T | Promise<T>) => Promise<T>;
  /** Each call's key, reported for the check of declarations as the call passes the gate. */
  readonly #accessed: Accessed;

  /**
   * `report: false` (guarded wirings): the calls stay gated, but the guard's record is the approval's durable record
   * then, and it alone is reported as record reads and writes. `accessed` is `WorldEnv.accessed`.
   */
  constructor(store: ApprovalStore, gate: GateFn, history: Recorder, external: External, { report = true, accessed = (() => {}) as Accessed } = {}) {
    this.#store = store;
    this.#accessed = accessed;
    this.#gate = gate;
    this.#history = report ? history : ({ emit: () => {} } as unknown as Recorder);
    this.#io = <T>(work: T | Promise<T>) => external(Promise.resolve(work));
  }

  async create(turn: string, approvalId: string, action: Action, world: string): Promise<void> {
    await this.#gate(turn, `store.create(${approvalId})`, { access: record(approvalId, 'write') });
    const { from, version } = await this.#io(this.#store.create(approvalId, action, world));
    this.#call(approvalId, 'write', 'create');
    this.#history.emit({ kind: 'record-write', actor: turn, approvalId, version, from, state: 'unspent' });
  }

  async read(turn: string, approvalId: string): Promise<StoredApproval | undefined> {
    await this.#gate(turn, `store.read(${approvalId})`, { access: record(approvalId, 'read') });
    const found = await this.#io(this.#store.read(approvalId));
    this.#call(approvalId, 'read', 'read');
    this.#history.emit({
      kind: 'record-read',
      actor: turn,
      approvalId,
      version: found?.version ?? 0,
      state: found?.state ?? 'absent',
    });
    return found;
  }

  async write(turn: string, approvalId: string, state: ApprovalState): Promise<void> {
    await this.#gate(turn, `store.write(${approvalId}, ${state})`, { access: record(approvalId, 'write') });
    const { from, version } = await this.#io(this.#store.write(approvalId, state));
    this.#call(approvalId, 'write', 'write');
    this.#history.emit({ kind: 'record-write', actor: turn, approvalId, version, from, state });
  }

  async compareAndSet(turn: string, approvalId: string, expected: ApprovalState, next: ApprovalState) {
    await this.#gate(turn, `store.compareAndSet(${approvalId}, ${expected} -> ${next})`, {
      access: record(approvalId, 'write'),
    });
    const result = await this.#io(this.#store.compareAndSet(approvalId, expected, next));
    // What the store answered: a compare-and-set that lost only read.
    this.#call(approvalId, result.ok ? 'write' : 'read', 'compareAndSet');
    if (result.ok) {
      this.#history.emit({
        kind: 'record-write',
        actor: turn,
        approvalId,
        version: result.version,
        from: result.from,
        state: next,
        conditional: true,
      });
    } else {
      // A failed compare-and-set wrote nothing, but it did read the record.
      this.#history.emit({ kind: 'record-read', actor: turn, approvalId, version: result.version, state: result.from });
    }
    return result.ok;
  }

  /** Takes the approval's lock; the returned function gives it back, through a gate of its own. */
  async lock(turn: string, approvalId: string): Promise<() => Promise<void>> {
    const access: Access[] = [{ key: `lock:${approvalId}`, mode: 'write' }];
    await this.#gate(turn, `store.lock(${approvalId})`, { access });
    this.#accessed({ key: `lock:${approvalId}`, mode: 'write' }, `store.lock(${approvalId})`);
    // Waiting for another holder is not I/O: only the lock's own server calls go through `io`.
    const release = await this.#store.lock(approvalId, (work) => this.#io(work));
    return async () => {
      await this.#gate(turn, `store.unlock(${approvalId})`, { access });
      this.#accessed({ key: `lock:${approvalId}`, mode: 'write' }, `store.unlock(${approvalId})`);
      await this.#io(release());
    };
  }

  /**
   * Reports a call of the store once the store has answered, from what the call did (a write's new version, a
   * compare-and-set's outcome), never from what its gate declares.
   */
  #call(approvalId: string, mode: Access['mode'], call: string): void {
    this.#accessed({ key: `record:${approvalId}`, mode }, `store.${call}(${approvalId})`);
  }
}

function record(approvalId: string, mode: Access['mode']): Access[] {
  return [{ key: `record:${approvalId}`, mode }];
}
