// A file or folder the suite cannot write (or read) is the user's to fix, not a bug: say which path, what the system
// said, and what to do, as one line.
const REASONS: Readonly<Record<string, string>> = {
  EACCES: 'permission denied',
  EPERM: 'not permitted',
  EROFS: 'the file system is read-only',
  ENOSPC: 'no space left on the device',
  EDQUOT: 'over the disk quota',
  ENOTDIR: 'a part of the path is a file, not a folder',
  EISDIR: 'it is a folder',
  ENOENT: 'no such file or folder',
  EEXIST: 'something is already there',
  ENAMETOOLONG: 'the name is too long',
};

/** The one-line message for a file-system error on a path, or undefined for any other error. */
export function fsProblem(error: unknown): string | undefined {
  const { code, path, syscall } = (error ?? {}) as NodeJS.ErrnoException;
  if (typeof code !== 'string' || typeof path !== 'string' || !(code in REASONS)) return undefined;
  const doing = syscall === 'mkdir' ? 'make the folder' : syscall === 'open' || syscall === 'stat' || syscall === 'scandir' ? 'open' : 'write';
  return `cannot ${doing} '${path}': ${REASONS[code]} (${code}). Check the path; for output, choose one you can write to (--out).`;
}
