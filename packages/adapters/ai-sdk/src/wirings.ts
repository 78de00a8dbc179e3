// The wirings: each a documented way to put a confirmation in front of a tool, on the generateText or the streamText
// path.
import type { WiringInfo } from '@approval-conformance/core';
import type { Features } from './features.js';

export interface Wiring extends WiringInfo {
  /** Native `needsApproval`, the same signed with `experimental_toolApprovalSecret`, or the 5.x cookbook. */
  readonly approval: 'native' | 'signed' | 'cookbook';
  readonly path: 'generate' | 'stream';
  /** Why this version cannot run it, if it cannot. */
  readonly unavailable: (features: Features) => string | undefined;
}

const native = (f: Features) =>
  f.nativeApproval ? undefined : 'this version has no native tool approval (needsApproval, 6.0+)';
const signed = (f: Features) =>
  native(f) ?? (f.signedApproval ? undefined : 'this version has no experimental_toolApprovalSecret (6.0.202+)');

const WAYS = [
  {
    id: 'native-approval',
    approval: 'native',
    description: 'tool({ needsApproval: true, execute }); the client answers with a tool-approval-response',
    unavailable: native,
  },
  {
    id: 'signed-approval',
    approval: 'signed',
    description: 'native approval with experimental_toolApprovalSecret: requests carry an HMAC of the call',
    unavailable: signed,
  },
  {
    id: 'cookbook-hitl',
    approval: 'cookbook',
    description: 'the human-in-the-loop cookbook: no execute; the client answers "Yes, confirmed." and the route runs the tool',
    unavailable: () => undefined,
  },
] as const;

export const WIRINGS: readonly Wiring[] = WAYS.flatMap((way) => [
  { ...way, path: 'generate' as const, description: `${way.description} (generateText)` },
  { ...way, id: `${way.id}-stream`, path: 'stream' as const, description: `${way.description} (streamText)` },
]);
