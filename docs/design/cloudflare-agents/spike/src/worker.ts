// Spike worker: Cloudflare's documented AIChatAgent + needsApproval pattern
// (developers.cloudflare.com/agents/getting-started/build-a-chat-agent and
// .../agents/concepts/human-in-the-loop), with the LLM replaced by a
// service-binding-backed model and the tool side effect by a BACKEND binding.
import { AIChatAgent } from "@cloudflare/ai-chat";
import { routeAgentRequest } from "agents";
import { convertToModelMessages, stepCountIs, streamText, tool } from "ai";
import { z } from "zod";
import { BindingModel } from "./binding-model";

type Fetcher = { fetch(input: RequestInfo, init?: RequestInit): Promise<Response> };
export interface Env {
  ChatAgent: DurableObjectNamespace;
  ChatAgentNoRecovery: DurableObjectNamespace;
  MODEL: Fetcher;
  BACKEND: Fetcher;
}

export class ChatAgent extends AIChatAgent<Env> {
  async onChatMessage() {
    const env = this.env;
    const result = streamText({
      model: new BindingModel(env.MODEL),
      messages: await convertToModelMessages(this.messages),
      tools: {
        transfer: tool({
          description: "Transfer money",
          inputSchema: z.object({ amount: z.number() }),
          needsApproval: true,
          execute: async ({ amount }, { toolCallId }) => {
            const res = await env.BACKEND.fetch("http://backend/transfer", {
              method: "POST",
              headers: { "content-type": "application/json" },
              body: JSON.stringify({ toolCallId, amount }),
            });
            return await res.json();
          },
        }),
      },
      stopWhen: stepCountIs(5),
    });
    return result.toUIMessageStreamResponse();
  }
}

// Same agent, but an interrupted turn found after a restart is persisted and
// NOT continued (documented opt-out: onChatRecovery returning {continue:false}).
// Note: `chatRecovery = false` does not switch recovery off in 0.12.2.
export class ChatAgentNoRecovery extends ChatAgent {
  protected onChatRecovery() {
    return { continue: false };
  }
}

export default {
  async fetch(request: Request, env: Env): Promise<Response> {
    return (await routeAgentRequest(request, env)) ?? new Response("not found", { status: 404 });
  },
};
