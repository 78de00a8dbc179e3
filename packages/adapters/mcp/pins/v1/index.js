// The modules the MCP adapter drives for SDK 1.x (legacy push elicitation), from this pin's own dependency tree.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
export * as mcp from '@modelcontextprotocol/sdk/server/mcp.js';
export * as client from '@modelcontextprotocol/sdk/client/index.js';
export * as memory from '@modelcontextprotocol/sdk/inMemory.js';
export * as types from '@modelcontextprotocol/sdk/types.js';
export * as zod from 'zod';
export const version = JSON.parse(readFileSync(new URL('./node_modules/@modelcontextprotocol/sdk/package.json', import.meta.url), 'utf8')).version;
/** Where this pin is installed. */
export const dir = fileURLToPath(new URL('.', import.meta.url));
