// The modules the MCP adapter drives for SDK 2.x (multi-round tool results), from this pin's own dependency tree.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
export * as server from '@modelcontextprotocol/server';
export * as client from '@modelcontextprotocol/client';
export * as zod from 'zod/v4';
export const version = JSON.parse(readFileSync(new URL('./node_modules/@modelcontextprotocol/server/package.json', import.meta.url), 'utf8')).version;
/** Where this pin is installed. */
export const dir = fileURLToPath(new URL('.', import.meta.url));
