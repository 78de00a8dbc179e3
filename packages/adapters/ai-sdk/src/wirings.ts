// The wirings: each a documented way to put a confirmation in front of a tool, on the generateText or the streamText
// path; and the documented way of each release line with the approval guard added (`guarded-*`, generateText).
import type { WiringInfo } from '@approval-conformance/core/contract';
import type { Features } from './features.js';

export interface Wiring extends WiringInfo {
  /** Native `needsApproval`, the same signed with `experimental_toolApprovalSecret`, or the 5.x cookbook. */
  readonly approval: 'native' | 'signed' | 'cookbook';
  readonly path: 'generate' | 'stream';
  /** The app adds the approval guard (@approval-conformance/guard) to the documented pattern, and nothing else. */
  readonly guarded: boolean;
  /** useChat's UIMessage patterns: the client holds the history and sends it all, or the server holds it. */
  readonly ui?: 'client' | 'server';
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

/**
 * The guarded wirings: the documented pattern of each release line (native approval from 6.0, the cookbook before),
 * with the approval guard (@approval-conformance/guard) added and nothing else changed. generateText only.
 */
const GUARDED = [
  {
    id: 'guarded-native-approval',
    approval: 'native',
    description:
      'native-approval with the approval guard (@approval-conformance/guard): the route records each card before showing it, ' +
      "the click is recorded on the server, and the tool's execute spends the approval (bound to the call and the world) " +
      "before it calls the backend with the guard's idempotency key",
    unavailable: native,
  },
  {
    id: 'guarded-cookbook-hitl',
    approval: 'cookbook',
    description:
      'cookbook-hitl with the approval guard (@approval-conformance/guard): the route records each card before showing it, ' +
      'the click is recorded on the server, and the route spends the approval (bound to the call and the world) before it ' +
      "runs the confirmed tool with the guard's idempotency key",
    unavailable: (f: Features) =>
      f.nativeApproval
        ? "from 6.0 the SDK's own tool approval is the documented pattern; its guarded form is guarded-native-approval"
        : undefined,
  },
] as const;

const chat = (f: Features) =>
  f.nativeApproval && f.chatApproval
    ? undefined
    : 'this version has no native tool approval for useChat (needsApproval and addToolApprovalResponse, 6.0+)';

/**
 * useChat's two documented ways to keep the UIMessages, on streamText's UI message stream, the client being the SDK's
 * own chat code (AbstractChat) answering with addToolApprovalResponse.
 */
const UI = [
  {
    id: 'ui-client-history',
    ui: 'client',
    // The tool-execution-approval docs' pattern (useChat, streamText, needsApproval): what most apps deploy.
    docsDefault: true,
    description:
      "useChat's default: the client keeps the UIMessages and sends them all with every request; the route converts them " +
      '(convertToModelMessages), runs streamText with tool({ needsApproval: true }) and saves them on finish; the client ' +
      'answers a card with addToolApprovalResponse (sendAutomaticallyWhen)',
  },
  {
    id: 'ui-server-history',
    ui: 'server',
    description:
      'useChat sending only its last message (prepareSendMessagesRequest): the route loads the stored UIMessages, puts the ' +
      'message after them, or in place of the one it continues (an answered card), converts them, runs streamText and ' +
      'saves them on finish; the client answers a card with addToolApprovalResponse',
  },
] as const;

export const WIRINGS: readonly Wiring[] = [
  ...WAYS.flatMap((way) => [
    { ...way, path: 'generate' as const, guarded: false, description: `${way.description} (generateText)` },
    { ...way, id: `${way.id}-stream`, path: 'stream' as const, guarded: false, description: `${way.description} (streamText)` },
  ]),
  ...GUARDED.map((way) => ({ ...way, path: 'generate' as const, guarded: true, description: `${way.description} (generateText)` })),
  ...UI.map((way) => ({ ...way, approval: 'native' as const, path: 'stream' as const, guarded: false, unavailable: chat })),
];
