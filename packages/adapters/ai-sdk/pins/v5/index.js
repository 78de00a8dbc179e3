// The modules the AI SDK adapter drives, from this pin's own dependency tree.
export * as ai from 'ai';
export * as test from 'ai/test';
import { createRequire } from 'node:module';
export const version = createRequire(import.meta.url)('ai/package.json').version;
