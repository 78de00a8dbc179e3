// What example.test.ts needs to run the README's examples as an app would: an app folder whose node_modules links the
// guard (this package, from its TypeScript sources) and the framework versions the workspace pins, so the guard
// itself never depends on a framework. Linked packages resolve their own dependencies from where they really are.
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, symlink, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
export const GUARD = fileURLToPath(new URL('..', import.meta.url));
export const REPO = join(GUARD, '..', '..');
export const README = readFileSync(join(GUARD, 'README.md'), 'utf8');

/** How the README shows an example: its file word for word in a ```ts block, then "It prints:" and a ```text block. */
export function inReadme(file: string): { readonly block: string; readonly printed: string | undefined } {
  const block = '```ts\n' + readFileSync(join(GUARD, 'examples', file), 'utf8') + '```\n';
  const at = README.indexOf(block);
  const printed = at < 0 ? undefined : /^\n*It prints:\n\n```text\n([^`]*)```/.exec(README.slice(at + block.length))?.[1];
  return { block, printed };
}

/** A package a pin installs (`packages/adapters/<pin>/node_modules/<name>`); a missing pin is an error, never a skip. */
export function pinned(pin: string, name: string, major: number): string {
  const dir = join(REPO, 'packages', 'adapters', pin, 'node_modules', name);
  const manifest = join(dir, 'package.json');
  if (!existsSync(manifest)) {
    throw new Error(`${name} is not installed in packages/adapters/${pin}, where the workspace pins it: run pnpm install at the repository's root`);
  }
  const version = (JSON.parse(readFileSync(manifest, 'utf8')) as { version: string }).version;
  if (Number(version.split('.')[0]) !== major) throw new Error(`packages/adapters/${pin} has ${name} ${version}, not ${major}.x`);
  return dir;
}

/**
 * A fresh app folder: an ES module package with `file` copied in, its node_modules linking `links` (name → folder),
 * the guard and @types/node, and a tsconfig (the workspace's compiler options) that typechecks `file` alone.
 */
export async function appFolder(file: string, links: Readonly<Record<string, string>>): Promise<string> {
  const app = await mkdtemp(join(tmpdir(), 'ac-guard-example-'));
  await writeFile(join(app, 'package.json'), JSON.stringify({ private: true, type: 'module' }));
  const all = { ...links, '@approval-conformance/guard': GUARD, '@types/node': dirname(require.resolve('@types/node/package.json')) };
  for (const [name, target] of Object.entries(all)) {
    await mkdir(dirname(join(app, 'node_modules', name)), { recursive: true });
    await symlink(target, join(app, 'node_modules', name), 'dir');
  }
  await copyFile(join(GUARD, 'examples', file), join(app, file));
  const compilerOptions = { noEmit: true, declaration: false, declarationMap: false, sourceMap: false };
  await writeFile(join(app, 'tsconfig.json'), JSON.stringify({ extends: join(REPO, 'tsconfig.base.json'), compilerOptions, files: [file] }));
  return app;
}

export interface Ran {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs a command to its end, without blocking (the examples run side by side). */
export function run(command: string, args: readonly string[], cwd: string): Promise<Ran> {
  return new Promise((resolve) => {
    execFile(command, args, { cwd, encoding: 'utf8', timeout: 50_000 }, (error, stdout, stderr) =>
      resolve({ status: error ? (typeof error.code === 'number' ? error.code : null) : 0, stdout, stderr }),
    );
  });
}

/** Runs a TypeScript example with node and tsx, resolving the guard to its sources. */
export const runExample = (path: string, cwd: string) =>
  run(process.execPath, ['--import', require.resolve('tsx'), '--conditions=@approval-conformance/source', path], cwd);

/** Typechecks the app folder's example against the linked packages' own types. */
export const typecheck = (app: string) => run(process.execPath, [join(dirname(require.resolve('typescript/package.json')), 'bin', 'tsc'), '-p', app], app);
