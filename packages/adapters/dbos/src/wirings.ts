// The wirings: how an app built on DBOS asks a human, as DBOS's docs and examples write it, and the same with the
// approval guard.
import type { WiringInfo } from '@approval-conformance/core/contract';
import type { WiringSpec } from './world.js';

export const WIRINGS: readonly (WiringInfo & { readonly spec: WiringSpec })[] = [
  {
    id: 'recv-send',
    description:
      "the docs' human-in-the-loop (the checkout tutorial, the agent inbox): the workflow publishes its card with setEvent and waits on DBOS.recv(topic, 120); the endpoint the answer reaches calls DBOS.send with no idempotency key, and reads the outcome with getEvent",
    docsDefault: true,
    spec: { guarded: false },
  },
  {
    id: 'send-idempotency-key',
    description:
      "the same, the answer sent with an idempotency key for its card (DBOS.send's fourth argument, which the docs give 'to guarantee exactly-once delivery'): a second answer to one card is not delivered",
    remedy: 'https://docs.dbos.dev/typescript/tutorials/workflow-communication',
    spec: { guarded: false, sendKey: (approvalId) => `answer-${approvalId}` },
  },
  {
    id: 'guarded-recv-send',
    description:
      "the docs' human-in-the-loop with the approval guard: its record (in the same PostgreSQL database) written before the card, the click recorded on the server, and the tool's step spends the record before it acts",
    spec: { guarded: true },
  },
];
