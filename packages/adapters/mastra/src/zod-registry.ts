// Mastra's agent loop builds its approval schema with `zod/v4` on every tool call, and `.describe()` adds each schema
// to zod's global registry. zod 3.25 (the zod Mastra is installed with) keeps that registry in a Map, so an
// application's memory grows with every tool call (zod 4 keeps it in a WeakMap). In one process that runs tens of
// thousands of worlds, a long cell kept about 90 KB more a schedule until V8 aborted the worker. This is
// mastra-ai/mastra#18469 (closed; in 1.71.0 the approval schema still does it), and the workaround given there: only
// the registry's own get, has, set and delete read its map, and a WeakMap answers them alike. Nothing Mastra does
// changes.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';

/** The zod package that `@mastra/core`, installed under `dir`, imports: its folder, or undefined. */
function mastrasZod(dir: string): string | undefined {
  try {
    const core = createRequire(join(dir, 'package.json')).resolve('@mastra/core/package.json');
    return dirname(createRequire(core).resolve('zod/package.json'));
  } catch {
    return undefined;
  }
}

/** `zod/v4/core` as Mastra under `dir` loads it (the same module instance), or undefined where there is none. */
export async function mastrasZodCore(dir: string | undefined): Promise<Record<string, unknown> | undefined> {
  const zod = dir === undefined ? undefined : mastrasZod(dir);
  if (zod === undefined) return undefined;
  type Manifest = { exports?: Record<string, { import?: unknown }> };
  const entry = (JSON.parse(readFileSync(join(zod, 'package.json'), 'utf8')) as Manifest).exports?.['./v4/core']?.import;
  if (typeof entry !== 'string') return undefined;
  return (await import(pathToFileURL(join(zod, entry)).href)) as Record<string, unknown>;
}

/**
 * Makes zod's global registry, as Mastra under `dir` loads it, hold its schemas weakly. Returns whether it did: false
 * where there is no `zod/v4`, or its registry holds them weakly already.
 */
export async function weakenZodRegistry(dir: string | undefined): Promise<boolean> {
  const registry = (await mastrasZodCore(dir))?.['globalRegistry'] as { _map?: unknown } | undefined;
  if (registry === undefined || !(registry._map instanceof Map)) return false;
  registry._map = new WeakMap(registry._map as Map<object, unknown>);
  return true;
}
