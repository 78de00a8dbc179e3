// The modules the Mastra adapter drives, from this pin's own dependency tree.
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
export * as agent from '@mastra/core/agent';
export * as mastra from '@mastra/core/mastra';
export * as tools from '@mastra/core/tools';
export * as workflows from '@mastra/core/workflows';
export * as storage from '@mastra/core/storage';
export * as libsql from '@mastra/libsql';
export * as zod from 'zod';
export const version = createRequire(import.meta.url)('@mastra/core/package.json').version;
/** Where this pin is installed: the adapter's packages resolve from here. */
export const dir = fileURLToPath(new URL('.', import.meta.url));
