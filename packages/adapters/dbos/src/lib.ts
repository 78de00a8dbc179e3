// One installed DBOS Transact (`@dbos-inc/dbos-sdk`), loaded from where it is installed: its module, and the pg driver
// it brings (the adapter builds the system database's pool with it, so that every statement passes a gate). The
// adapter reads the module by feature detection, never by version number.
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { optionalPackage } from '@approval-conformance/core/kit';

/** A module, loosely typed: what is in it depends on the version. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Module = Record<string, any>;

export interface DbosLib {
  readonly version: string;
  /** The folder whose node_modules holds the package. */
  readonly dir: string;
  /** `@dbos-inc/dbos-sdk`'s main module: `DBOS` and the rest. */
  readonly sdk: Module;
  /** The `pg` the package depends on. */
  readonly pg: Module;
  /**
   * The package's executor module (`dist/src/dbos-executor.js`, not in its exports map): the adapter reaches into it
   * for one thing only, to make a world's shutdown a process's death (see world.ts, `die`).
   */
  readonly executor: Module;
  /**
   * The package's registrations module (`dist/src/decorators.js`), for its lifecycle listeners: every launch's
   * executor adds its scheduler loop there, and nothing takes it out (a process launches once): see `listenersSince`.
   */
  readonly decorators: Module;
}

/** Loads the package installed under `dir`'s node_modules, with its own pg. */
export function loadFrom(dir: string): DbosLib {
  const require = createRequire(join(dir, 'package.json'));
  const main = require.resolve('@dbos-inc/dbos-sdk');
  const sdk = require(main) as Module;
  const own = createRequire(main);
  const pg = own('pg') as Module;
  const { version } = own(join(packageRoot(main), 'package.json')) as { version: string };
  const executor = own(join(dirname(main), 'dbos-executor.js')) as Module;
  const decorators = own(join(dirname(main), 'decorators.js')) as Module;
  return { version, dir, sdk, pg, executor, decorators };
}

/**
 * Each launch's executor registers its scheduler loop as a lifecycle listener, in the package's module-level list, and
 * shutdown leaves it there: the next launch would start the dead process's loop again, beside its own, and keep every
 * world ever launched in memory. Call this before a launch; what it returns, called after the shutdown, takes out what
 * that launch added (a new process has only its own).
 */
export function listenersSince(lib: DbosLib): () => void {
  const listeners: unknown = lib.decorators['getLifecycleListeners']?.();
  if (!Array.isArray(listeners)) return () => {};
  const before = new Set<unknown>(listeners);
  return () => {
    const kept = listeners.filter((l) => before.has(l));
    listeners.splice(0, listeners.length, ...kept);
  };
}

/** The package's folder, from its main module (`.../@dbos-inc/dbos-sdk/dist/src/index.js`). */
function packageRoot(main: string): string {
  let at = dirname(main);
  while (!at.endsWith(join('@dbos-inc', 'dbos-sdk'))) {
    const up = dirname(at);
    if (up === at) throw new Error(`cannot find the package folder of ${main}`);
    at = up;
  }
  return at;
}

const PIN_PACKAGE = '@approval-conformance/dbos-pin-5';

/** The version pinned in the workspace: `dbos@5.3.0` loads it without installing anything. */
export const PINNED_VERSION = '5.3.0';

async function importPin(): Promise<DbosLib> {
  const pin = await import(PIN_PACKAGE);
  return loadFrom(pin.dir as string);
}

/** The pinned version. Only in the workspace. */
export const pinnedLib = importPin;

/** The pinned version when its pin package is installed (in the workspace), else undefined. */
export const pinnedLibIfPresent = () => optionalPackage(PIN_PACKAGE, importPin);
