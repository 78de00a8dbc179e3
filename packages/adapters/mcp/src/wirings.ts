// The wirings: how a server asks for a confirmation, as each SDK line's docs and examples write it, and the same with
// the approval guard (`guarded-*`).
import type { WiringInfo } from '@approval-conformance/core/contract';

/**
 * What the guarded wirings do, on both lines. The card is a URL-mode elicitation: the human's click goes to the
 * server's own confirmation page (the guard's `approve`), never through the host, as the spec has servers do where
 * the client must not be trusted with the answer (the SDK's elicitationUrlExample). The host's `accept` only says that
 * the user went there. The tool spends the guard's record before it acts, for exactly the call the card showed.
 */
const GUARDED = "with the approval guard: the card is a URL-mode elicitation whose page (the server's) records the click, and the tool spends the guard's record before it acts";

/** SDK 1.x: the tool handler awaits `server.server.elicitInput(...)` and acts on `accept` (elicitationFormExample). */
export const LEGACY: readonly WiringInfo[] = [
  {
    id: 'elicit-input',
    description: "legacy push elicitation, as the SDK's elicitationFormExample: the tool handler awaits server.elicitInput and acts on accept",
    docsDefault: true,
  },
  { id: 'guarded-elicit-input', description: `legacy push elicitation ${GUARDED}` },
];

/** SDK 2.x: the tool answers input_required until the call carries the confirmation (MRTR). */
export const MRTR: readonly WiringInfo[] = [
  {
    id: 'input-required',
    description: "multi-round tool results, as the inputRequired JSDoc writes it: the tool answers input_required until the call's inputResponses carry an accepted confirmation",
    docsDefault: true,
  },
  {
    id: 'input-required-codec',
    description:
      "the same with the request state signed and given a TTL by createRequestStateCodec, as the SDK's examples/mrtr does (its documented hardening: it protects requestState, not the confirmation's single use)",
    remedy: 'https://github.com/modelcontextprotocol/typescript-sdk/tree/main/examples/mrtr',
  },
  { id: 'guarded-input-required', description: `multi-round tool results ${GUARDED}; the request state names the approval` },
  {
    id: 'guarded-input-required-codec',
    description: `the same, its request state signed by createRequestStateCodec with a key from the server's configuration (kept across a restart)`,
  },
];

export const WIRINGS: readonly WiringInfo[] = [...LEGACY, ...MRTR];
