// What an installed AI SDK can do, found by trying it: a mock model calls a tool that needs approval, and the probe
// looks at what generateText hands back. Nothing here reads a version number.
import type { AiLib } from './lib.js';
import { mockModel } from './model.js';
import { chatAnswersCards } from './ui-chat.js';
import type { Part } from './transcript.js';

export interface Features {
  /** `needsApproval` pauses a call with a `tool-approval-request` part (6.0+). */
  readonly nativeApproval: boolean;
  /** `experimental_toolApprovalSecret` signs the request (6.0.202+). */
  readonly signedApproval: boolean;
  /** useChat's client answers cards: AbstractChat's addToolApprovalResponse and its auto-send check (6.0+). */
  readonly chatApproval: boolean;
}

/** A fixed secret for the signed wiring: the server's, never the client's. */
export const APPROVAL_SECRET = 'approval-conformance-secret-0123456789';

const PROBE_INPUT = { type: 'object', properties: {} } as const;

async function probe(lib: AiLib, options: Record<string, unknown>): Promise<Part | undefined> {
  const { generateText, tool, jsonSchema } = lib.ai;
  const model = mockModel(lib, async () => ({ call: { id: 'probe', action: { operation: 'probe', targets: [], params: {} } } }));
  const tools = { probe: tool({ inputSchema: jsonSchema(PROBE_INPUT), needsApproval: true, execute: async () => 'ran' }) };
  const result = await generateText({ model, tools, prompt: 'probe', maxRetries: 0, ...options });
  return (result.content as Part[] | undefined)?.find((p) => p['type'] === 'tool-approval-request');
}

export async function detectFeatures(lib: AiLib): Promise<Features> {
  const request = await probe(lib, {});
  if (!request) return { nativeApproval: false, signedApproval: false, chatApproval: false };
  const signed = await probe(lib, { experimental_toolApprovalSecret: APPROVAL_SECRET });
  return { nativeApproval: true, signedApproval: typeof signed?.['signature'] === 'string', chatApproval: chatAnswersCards(lib) };
}
