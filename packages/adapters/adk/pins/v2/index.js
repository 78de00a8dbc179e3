// The modules the ADK adapter drives, from this pin's own dependency tree.
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
export * as adk from '@google/adk';
// Not every version exports ./package.json: read it above the entry point (dist/esm/index.js or dist/cjs/index.js).
const require = createRequire(import.meta.url);
const manifestAbove = (dir) => {
  const file = join(dir, 'package.json');
  const manifest = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : undefined;
  return manifest?.name === '@google/adk' ? manifest : dir === dirname(dir) ? undefined : manifestAbove(dirname(dir));
};
export const version = manifestAbove(dirname(require.resolve('@google/adk'))).version;
/** Where this pin is installed: the adapter's packages (the database drivers) resolve from here. */
export const dir = fileURLToPath(new URL('.', import.meta.url));
