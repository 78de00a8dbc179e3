// Which turn (and which approval) the code running now belongs to. The SDK's own code runs between the adapter's
// gates, and calls back into it (a send, a tool handler, the client's elicitation handler) with no per-call config
// to carry the turn: an AsyncLocalStorage does, as the code's async context does for the scheduler.
import { AsyncLocalStorage } from 'node:async_hooks';

export interface Turn {
  readonly turn: string;
  readonly approvalId: string;
  /** What the request does to the approval's record, where the world needs it said (MRTR: the first round writes it). */
  readonly writes?: boolean;
}

export const turns = new AsyncLocalStorage<Turn>();
