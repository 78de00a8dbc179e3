// The modules the LangGraph adapter drives, from this pin's own dependency tree.
export * as langgraph from '@langchain/langgraph';
export * as sqlite from '@langchain/langgraph-checkpoint-sqlite';
import { createRequire } from 'node:module';
export const version = createRequire(import.meta.url)('@langchain/langgraph/package.json').version;
