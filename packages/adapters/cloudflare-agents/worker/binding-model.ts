// @ts-nocheck
// Runs inside workerd (bundled by src/bundle.ts); not type-checked: the workspace has no Workers types.
// A network-free AI SDK LanguageModel (spec v4, ai@7) whose every call is
// forwarded to a service binding. The Node host behind the binding decides
// the answer, so the test controls the "LLM" completely (and can hold it).
//
// Wire format (POST JSON to the binding):
//   request : { mode: "generate"|"stream", prompt: LanguageModelV4Prompt, tools: string[] }
//   response: { content: Array<{type:"text",text} | {type:"tool-call",toolCallId,toolName,input:string}> }
import type {
  LanguageModelV4,
  LanguageModelV4CallOptions,
  LanguageModelV4Content,
  LanguageModelV4GenerateResult,
  LanguageModelV4StreamPart,
  LanguageModelV4StreamResult,
} from "@ai-sdk/provider";
// The spec the installed ai takes (v3 for ai 6, v4 for ai 7; src/compat.ts): the shapes below are the same in both.
import { MODEL_SPEC } from "cs-compat";

type Fetcher = { fetch(input: RequestInfo, init?: RequestInit): Promise<Response> };

const usage = {
  inputTokens: { total: 0, noCache: 0, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 0, text: 0, reasoning: 0 },
};

export class BindingModel implements LanguageModelV4 {
  readonly specificationVersion = MODEL_SPEC as "v4";
  readonly provider = "conformance-binding";
  readonly modelId: string;
  readonly supportedUrls = {};

  constructor(private readonly binding: Fetcher, modelId = "scripted") {
    this.modelId = modelId;
  }

  private async ask(mode: "generate" | "stream", options: LanguageModelV4CallOptions): Promise<LanguageModelV4Content[]> {
    const res = await this.binding.fetch("http://model/", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        mode,
        prompt: options.prompt,
        tools: (options.tools ?? []).map((t) => t.name),
      }),
    });
    if (!res.ok) throw new Error(`MODEL binding answered ${res.status}: ${await res.text()}`);
    const { content } = (await res.json()) as { content: LanguageModelV4Content[] };
    return content;
  }

  private static finish(content: LanguageModelV4Content[]) {
    const calls = content.some((c) => c.type === "tool-call");
    return { unified: calls ? ("tool-calls" as const) : ("stop" as const), raw: calls ? "tool_calls" : "stop" };
  }

  async doGenerate(options: LanguageModelV4CallOptions): Promise<LanguageModelV4GenerateResult> {
    const content = await this.ask("generate", options);
    return { content, finishReason: BindingModel.finish(content), usage, warnings: [] } as LanguageModelV4GenerateResult;
  }

  async doStream(options: LanguageModelV4CallOptions): Promise<LanguageModelV4StreamResult> {
    const content = await this.ask("stream", options);
    const parts: LanguageModelV4StreamPart[] = [{ type: "stream-start", warnings: [] }];
    content.forEach((c, i) => {
      if (c.type === "text") {
        const id = `t${i}`;
        parts.push({ type: "text-start", id }, { type: "text-delta", id, delta: c.text }, { type: "text-end", id });
      } else {
        parts.push(c as LanguageModelV4StreamPart);
      }
    });
    parts.push({ type: "finish", usage, finishReason: BindingModel.finish(content) });
    return {
      stream: new ReadableStream<LanguageModelV4StreamPart>({
        start(controller) {
          for (const p of parts) controller.enqueue(p);
          controller.close();
        },
      }),
    };
  }
}
