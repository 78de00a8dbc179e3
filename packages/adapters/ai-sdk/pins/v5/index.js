// The modules the AI SDK adapter drives, from this pin's own dependency tree.
export * as ai from 'ai';
export * as test from 'ai/test';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
export const version = createRequire(import.meta.url)('ai/package.json').version;
/** Where this pin is installed: the adapter's packages resolve from here. */
export const dir = fileURLToPath(new URL('.', import.meta.url));
