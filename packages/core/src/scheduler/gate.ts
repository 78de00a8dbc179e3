// A gate is an await point in the subject's code that the scheduler holds until it chooses to release it.
// Between gates the subject's code runs untouched.

/** What the code after a gate touches, up to the turn's next gate. Used only to decide which releases commute. */
export interface Access {
  /** A name for the shared thing: `record:a1`, `lock:a1`, `world:acct-1`. */
  readonly key: string;
  readonly mode: 'read' | 'write';
}

export interface GateOptions {
  /**
   * What the code released by this gate touches before the turn's next gate. Leave it out when unsure: a gate
   * without accesses is treated as dependent on every other, which is always sound, only slower. A gate whose
   * accesses are all reads promises that, until the turn's next gate, its code changes nothing shared and records
   * nothing but reads.
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
}

/** One release: which gate, and for an adversary decision, which alternative; or the process dying at the gate. */
export interface Release {
  readonly gate: string;
  readonly choice: number;
  readonly crash?: true;
}

/**
 * Two releases commute when they are by different turns and both only read. Writes never commute, even to different
 * keys: the properties order events across keys (an effect against the record's spend, a disclosure against the
 * effect), so swapping two writes can change a verdict even when it leaves the state the same. Reads by different
 * turns can be swapped freely: no property orders one turn's reads against another's.
 */
export function independent(a: PendingGate, b: PendingGate): boolean {
  if (a.turn === b.turn || a.access === undefined || b.access === undefined) return false;
  return [...a.access, ...b.access].every((x) => x.mode === 'read');
}
