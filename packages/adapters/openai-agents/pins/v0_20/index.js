// The modules the OpenAI Agents adapter drives, from this pin's own dependency tree.
export * as agents from '@openai/agents';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
// The package exports no ./package.json: read it beside its entry point (dist/index.js).
const root = join(dirname(createRequire(import.meta.url).resolve('@openai/agents')), '..');
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
export const version = manifest.version;
/**
 * `@openai/agents/testing` where the version exports it (the scripted model), else undefined: imported by its file in
 * this package, so that nothing resolves the name from anywhere else.
 */
const testingEntry = manifest.exports?.['./testing']?.import;
export const testing = testingEntry ? await import(pathToFileURL(join(root, testingEntry)).href) : undefined;
/** Where this pin is installed: the adapter's packages resolve from here. */
export const dir = fileURLToPath(new URL('.', import.meta.url));
