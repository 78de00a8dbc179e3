// A folder the suite is about to write into (--out), checked before anything is written: it is a folder, or can be
// made one, and a file can be created in it. The error names the folder the user gave, not a file inside it or an
// input, and says what to do. Folders are made one level at a time: Node's recursive mkdir never returns on some
// paths (under /proc it retries forever).
import { constants } from 'node:fs';
import { access, mkdir, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { UsageError } from './usage-error.js';

const WHY: Readonly<Record<string, string>> = {
  EACCES: 'permission denied',
  EPERM: 'not permitted',
  EROFS: 'the file system is read-only',
  ENOSPC: 'no space left on the device',
  ENOENT: 'it cannot be made there',
  ENOTDIR: 'a part of the path is a file',
};

const problem = (what: string, error: unknown) => {
  const code = (error as NodeJS.ErrnoException)?.code ?? 'error';
  return new UsageError(`cannot write to ${what}: ${WHY[code] ?? code} (${code}). Choose a folder you can write to; nothing was written.`);
};

/**
 * Makes `dir` (and its missing parents) and checks a file can be written in it; throws a UsageError naming `what`
 * (the option as the user gave it: `--out DIR`).
 */
export async function writableFolder(dir: string, what = `--out ${dir}`): Promise<string> {
  const full = resolve(dir);
  const missing: string[] = [];
  let at = full;
  for (;;) {
    const found = await stat(at).catch((error: NodeJS.ErrnoException) => (error.code === 'ENOENT' || error.code === 'ENOTDIR' ? undefined : Promise.reject(problem(what, error))));
    if (found) {
      if (!found.isDirectory()) {
        throw new UsageError(`${what}: ${at === full ? 'it is a file' : `${at} is a file`}, not a folder. Choose a folder; nothing was written.`);
      }
      break;
    }
    missing.unshift(at);
    const parent = dirname(at);
    if (parent === at) break;
    at = parent;
  }
  try {
    await access(at, constants.W_OK);
    for (const level of missing) await mkdir(level);
    const probe = join(full, `.approval-conformance-probe-${process.pid}`);
    await writeFile(probe, '');
    await rm(probe, { force: true });
  } catch (error) {
    throw problem(what, error);
  }
  return full;
}
