// @ts-nocheck
// Runs inside workerd (bundled by src/bundle.ts); not type-checked: the workspace has no Workers types.
//
// Cloudflare's documented AIChatAgent + needsApproval pattern (developers.cloudflare.com/agents/api-reference/chat-agents,
// .../agents/concepts/human-in-the-loop), with the LLM replaced by a model whose calls go to the MODEL service binding
// and each tool's side effect by a call to the BACKEND binding. The tools take the suite's `{ targets, params }`.
import { AIChatAgent } from "@cloudflare/ai-chat";
import { routeAgentRequest } from "agents";
import { convertToModelMessages, stepCountIs, streamText, tool } from "ai";
import { z } from "zod";
import { BindingModel } from "./binding-model";

const input = z.object({ targets: z.array(z.string()), params: z.record(z.string(), z.unknown()) });

function backendTool(env, operation, needsApproval) {
  return tool({
    description: `${operation} (the suite's tool)`,
    inputSchema: input,
    needsApproval,
    execute: async (args, { toolCallId }) => {
      const res = await env.BACKEND.fetch(`http://backend/${operation}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ toolCallId, operation, input: args }),
      });
      if (!res.ok) throw new Error(`BACKEND answered ${res.status}: ${await res.text()}`);
      return await res.json();
    },
  });
}

// signed-ai-chat-approval (the world names its object `signed-…`): the AI SDK's signed approvals, the secret passed
// to streamText as its docs show for needsApproval. Runs only where ai-chat keeps the signature on the tool part it
// stores (src/compat.ts, signedLacking); no release does yet (docs/design/cloudflare-agents/SIGNED.md).
const APPROVAL_SECRET = "approval-conformance-signed-approvals";

export class ChatAgent extends AIChatAgent {
  async onChatMessage() {
    const env = this.env;
    const signed = String(this.ctx.id.name ?? "").startsWith("signed-");
    const result = streamText({
      model: new BindingModel(env.MODEL),
      messages: await convertToModelMessages(this.messages),
      tools: {
        transfer: backendTool(env, "transfer", true),
        notify: backendTool(env, "notify", true),
        note: backendTool(env, "note", false),
      },
      stopWhen: stepCountIs(5),
      ...(signed ? { experimental_toolApprovalSecret: APPROVAL_SECRET } : {}),
    });
    return result.toUIMessageStreamResponse();
  }
}

export default {
  async fetch(request, env) {
    return (await routeAgentRequest(request, env)) ?? new Response("not found", { status: 404 });
  },
};
