// The server's folder, its client and the LangGraph it runs, from this pin's own dependency tree.
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
export * as langgraph from '@langchain/langgraph';
export * as sdk from '@langchain/langgraph-sdk';
const require = createRequire(import.meta.url);
export const version = require('@langchain/langgraph-api/package.json').version;
/** Where this pin is installed: the adapter's packages resolve from here. */
export const dir = fileURLToPath(new URL('.', import.meta.url));
