// The history: what a run did, as an ordered list of events. Properties are pure predicates over it.
// Each event names its actor (a turn such as `t1`, or `user`, `holder`, `world`) and, when it came through a gate,
// the gate's label. Events carry only what some property needs; the narrator turns each into one sentence.

/** A turn (`t1`, `t2`...) or one of the non-turn actors the scenarios use. */
export type Actor = string;

/** What the approved action is: the tool, what it touches, and its arguments. */
export interface Action {
  readonly operation: string;
  readonly targets: readonly string[];
  readonly params: Readonly<Record<string, unknown>>;
}

/** What the durable record says about one approval. `absent`: the record holds no such approval. */
export type RecordState = 'unspent' | 'spent' | 'absent';

interface Base {
  readonly actor: Actor;
  /** The gate this event came through, e.g. `store.read(a1)`; absent for events that need no gate. */
  readonly gate?: string;
}

/** The model proposed an action that needs approval; the approval id names it from here on. */
export interface Proposed extends Base {
  readonly kind: 'proposed';
  readonly approvalId: string;
  readonly action: Action;
  /** Fingerprint of the world when the card was made. */
  readonly world: string;
}

/** A read of the durable record: what the reader saw about one approval, and at which record version. */
export interface RecordRead extends Base {
  readonly kind: 'record-read';
  readonly approvalId: string;
  readonly version: number;
  readonly state: RecordState;
}

/**
 * A write of the durable record for one approval. `from` is the state the record held just before the write;
 * `conditional` marks a compare-and-set (the write happened only because the record still held `from`).
 */
export interface RecordWrite extends Base {
  readonly kind: 'record-write';
  readonly approvalId: string;
  readonly version: number;
  readonly from: RecordState;
  readonly state: RecordState;
  readonly conditional?: boolean;
}

/**
 * The runtime decided to act on an approval: its check passed. Runtimes with an explicit claim step report it (the
 * reference runtime does); for a framework whose claim is implicit, the effect that follows says it.
 */
export interface Claim extends Base {
  readonly kind: 'claim';
  readonly approvalId: string;
}

/** A confirmation card sent to a client connection. `live: false` means nobody was listening there. */
export interface Delivery extends Base {
  readonly kind: 'delivery';
  readonly approvalId: string;
  readonly connection: string;
  readonly action: Action;
  readonly live: boolean;
}

/** Someone approved. `by: 'human'` is a real click or "go ahead"; `forged` is an approval no human gave. */
export interface Approve extends Base {
  readonly kind: 'approve';
  readonly approvalId: string;
  readonly by: 'human' | 'forged';
  /** The action the approver was shown. */
  readonly action: Action;
}

/**
 * The human said no to an approval's action: it must never run (integrity). `expired`: the runtime's own wait for the
 * answer is over (the timeout it declares, `World.answerTimeout`, has passed); that is final, and no answer after it
 * may run the action.
 */
export interface Deny extends Base {
  readonly kind: 'deny';
  readonly approvalId: string;
  /** The action the user was shown and refused, or whose answer the runtime stopped waiting for. */
  readonly action: Action;
  readonly expired?: true;
}

/** Whoever holds the state (a client transcript, a serialized run state) changed it. */
export interface Tamper extends Base {
  readonly kind: 'tamper';
  readonly approvalId: string;
  readonly what: string;
}

/**
 * One attempt by the tool transport to apply an action to the world. `dispatch` names the runtime's decision to call
 * the tool (a transport retry repeats the dispatch id); `applied` says whether the world changed (false when the
 * backend refused it, for instance as a duplicate idempotency key).
 */
export interface Effect extends Base {
  readonly kind: 'effect';
  readonly approvalId: string;
  readonly dispatch: string;
  readonly action: Action;
  /** Fingerprint of the world the action was applied against. */
  readonly world: string;
  readonly applied: boolean;
  /** False for a tool that needs no approval. */
  readonly requiresApproval: boolean;
}

/** What the user was told about an approval's action: that it happened, did not happen, or nothing definite. */
export interface Disclosure extends Base {
  readonly kind: 'disclosure';
  readonly approvalId: string;
  readonly says: 'happened' | 'not-happened' | 'unknown';
}

/** The process died; the actor's turn stops here. */
export interface Crash extends Base {
  readonly kind: 'crash';
}

export type HistoryEvent =
  | Proposed
  | RecordRead
  | RecordWrite
  | Claim
  | Delivery
  | Approve
  | Deny
  | Tamper
  | Effect
  | Disclosure
  | Crash;

export type History = readonly HistoryEvent[];
