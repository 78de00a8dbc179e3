// The DBOS package the adapter drives, from this pin's own dependency tree: its version and where it is installed
// (the adapter loads it, and the pg driver it brings, from there).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
export const version = JSON.parse(readFileSync(new URL('./node_modules/@dbos-inc/dbos-sdk/package.json', import.meta.url), 'utf8')).version;
/** Where this pin is installed. */
export const dir = fileURLToPath(new URL('.', import.meta.url));
