// The wirings: how a server asks for a confirmation, as each SDK line's docs and examples write it.
import type { WiringInfo } from '@approval-conformance/core/contract';

/** SDK 1.x: the tool handler awaits `server.server.elicitInput(...)` and acts on `accept` (elicitationFormExample). */
export const LEGACY: readonly WiringInfo[] = [
  {
    id: 'elicit-input',
    description: "legacy push elicitation, as the SDK's elicitationFormExample: the tool handler awaits server.elicitInput and acts on accept",
    docsDefault: true,
  },
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
];

export const WIRINGS: readonly WiringInfo[] = [...LEGACY, ...MRTR];
