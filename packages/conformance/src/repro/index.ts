// Standalone reproductions (`approval-conformance repro`): for a failing cell, a folder that shows the bug with the
// framework alone. script.ts assembles it; scenarios.ts and a module per framework hold the parts.
import { adkRepro } from './adk.js';
import { aiRepro } from './ai.js';
import { langgraphRepro } from './langgraph.js';
import { langgraphServerRepro } from './langgraph-server.js';
import { mastraRepro } from './mastra.js';
import { openaiAgentsRepro } from './openai-agents.js';
import type { FrameworkRepro } from './script.js';

export const FRAMEWORK_REPROS: readonly FrameworkRepro[] = [aiRepro, openaiAgentsRepro, adkRepro, langgraphRepro, langgraphServerRepro, mastraRepro];

export { REPRO_SCENARIOS } from './scenarios.js';
export { reproDir, reproFiles, reproFor, type ReproFiles, type ReproPlan, type ReproTarget, type StoryLink } from './script.js';
