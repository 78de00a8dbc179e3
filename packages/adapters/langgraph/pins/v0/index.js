// The modules the LangGraph adapter drives, from this pin's own dependency tree.
export * as langgraph from '@langchain/langgraph';
export * as sqlite from '@langchain/langgraph-checkpoint-sqlite';
export * as postgres from '@langchain/langgraph-checkpoint-postgres';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
export const version = createRequire(import.meta.url)('@langchain/langgraph/package.json').version;
/** Where this pin is installed: the adapter's packages resolve from here. */
export const dir = fileURLToPath(new URL('.', import.meta.url));
