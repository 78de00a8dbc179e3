// Cloudflare Agents as an adapter: the documented AIChatAgent (@cloudflare/ai-chat) with AI SDK `needsApproval`
// tools, running in the real workerd runtime through Miniflare, one Durable Object per world. Wiring only: the
// framework's code runs unchanged inside workerd; the prelude (worker/prelude.ts) only observes it and makes its
// timers virtual.
import {
  SCENARIOS,
  wiringInfo,
  type Adapter,
  type ScenarioId,
  type WiringInfo,
} from '@approval-conformance/core/contract';
import { installedVersion, WORKER_DIR, type InstalledTree } from './bundle.js';
import { lacking, signedLacking } from './compat.js';
import { stopRuntime } from './runtime.js';
import { CloudflareWorld } from './world.js';

export const WIRINGS: readonly WiringInfo[] = [
  {
    id: 'ai-chat-approval',
    description:
      "AIChatAgent with AI SDK tools that need approval (needsApproval), answered from the chat's WebSocket with cf_agent_tool_approval and continued on the server (autoContinue), as the docs show.",
    docsDefault: true,
  },
  {
    id: 'signed-ai-chat-approval',
    description:
      "ai-chat-approval with the AI SDK's signed approvals: the agent's onChatMessage passes experimental_toolApprovalSecret to streamText (as the AI SDK docs show for needsApproval), so ai signs each approval request and the continuation refuses an approved call whose stored approval carries no valid signature. Not the docs' pattern for AIChatAgent (they document no signing); it runs only where ai has the option and ai-chat keeps the signature on the tool part it stores (no release does yet: docs/design/cloudflare-agents/SIGNED.md).",
  },
  {
    id: 'guarded-ai-chat-approval',
    description:
      "ai-chat-approval with the approval guard (@approval-conformance/guard): the app records each card with the guard before the tab shows it, records the human's click on the server, and the tool's execute spends the approval (bound to the call and the world) before it calls the backend with the guard's idempotency key. The guard's records are in the Durable Object's own SQLite (ctx.storage.sql); its logic runs in the test's process, where the tool's BACKEND call is answered.",
  },
];

export const STORES = ['durable-object'] as const;

/** The wiring whose agent passes experimental_toolApprovalSecret (its worlds' objects are named `signed-…`). */
export const SIGNED = 'signed-ai-chat-approval';

/** The scenarios this adapter drives: every scenario core defines (the `*-no-keys` ones on the guarded wiring only). */
export const WIRED: ReadonlySet<ScenarioId> = new Set<ScenarioId>(['double-resume', 'overlapping-turns', 'crash-restart', 'world-drift', 're-proposal', 'three-tabs', 'error-after-effect', 'tool-retry', 'tamper', 'replay', 'two-approvals', 'double-resume-no-keys', 'replay-no-keys', 'crash-restart-no-keys']);

/** The framework as installed in this package: `@cloudflare/ai-chat`'s version, over the `agents` it resolves. */
export function frameworkVersions(): { readonly aiChat: string; readonly agents: string; readonly ai: string } {
  return { aiChat: installedVersion('@cloudflare/ai-chat'), agents: installedVersion('agents'), ai: installedVersion('ai') };
}

/**
 * The adapter over the workspace's pinned pair, or over an installed tree (src/versions.ts): its cells the installed
 * code cannot drive are not applicable, saying what it lacks (decided before any world is built).
 */
export function cloudflareAgentsAdapter(tree?: InstalledTree): Adapter {
  const installed = tree ?? { dir: WORKER_DIR, versions: frameworkVersions() };
  return {
    framework: 'cloudflare-agents',
    version: installed.versions.aiChat,
    wirings: WIRINGS.map(wiringInfo),
    stores: [...STORES],
    // The object's timers (the continuation's coalescing window, its polls) are virtual: polls sleep on the run's
    // virtual clock.
    sleeps: true,
    // Two tabs run the same code in one workerd over one object; a tab's socket id (and so every origin) is its
    // turn's name, a resume's frame carries nothing of the turn's, and nothing orders connections by name.
    turnsAlike: () => true,
    applicability(scenario, wiring, store) {
      if (!WIRINGS.some((w) => w.id === wiring)) return { applicable: false, reason: `no wiring '${wiring}'` };
      if (!(STORES as readonly string[]).includes(store)) return { applicable: false, reason: `no store '${store}'` };
      if (!WIRED.has(scenario)) return { applicable: false, reason: `no wiring in this adapter for ${scenario}, a scenario newer than it` };
      if (SCENARIOS.get(scenario)?.guardedOnly && !wiring.startsWith('guarded-')) {
        return { applicable: false, reason: 'only the guard sends idempotency keys: without it this is the scenario it copies' };
      }
      // An installed tree's missing approval features (the workspace's pinned pair has them).
      const missing = tree ? lacking(tree) : undefined;
      if (missing !== undefined) return { applicable: false, reason: missing };
      if (wiring === SIGNED) {
        const why = signedLacking(installed.dir, installed.versions);
        if (why !== undefined) return { applicable: false, reason: why };
      }
      return { applicable: true };
    },
    createWorld: (env) => CloudflareWorld.create(env),
    // No workerd outlives the cell that used it.
    release: stopRuntime,
  };
}
