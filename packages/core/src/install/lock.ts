// An inter-process lock per cache entry, so that two runs installing the same framework version at once do not
// write into each other's install: one installs, the other waits and then uses what the first installed. Entries are
// locked one by one, so different versions still install in parallel.
//
// The lock is a directory beside the entry, `.ENTRY.lock`, holding owner.json (pid, host, when, the process's start
// time where the OS says it, and a random token). It is made whole elsewhere and renamed into place, so a lock always
// names its owner; renaming onto a directory that is not empty fails, so only one process gets it. A lock whose owner
// is gone (the pid is not running on this host, or now belongs to a process started later) is stale: a waiter takes
// it over. No dependency: mkdir, rename and process.kill(pid, 0).
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, rmdir, stat, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { threadId } from 'node:worker_threads';

export interface LockOwner {
  readonly pid: number;
  readonly host: string;
  /** When the lock was taken (ISO 8601). */
  readonly since: string;
  /** The owner's start time as the OS counts it (Linux: clock ticks after boot), to tell a reused pid. */
  readonly start?: string;
  /** The worker thread that took it, 0 for the main thread: this process's other threads keep their own `held`. */
  readonly thread?: number;
  readonly token: string;
}

/** The tokens of the locks this thread holds. */
const held = new Set<string>();

/** A lock from another host cannot be checked by pid; it is taken as abandoned only once it is this old. */
const FOREIGN_STALE_MS = 60 * 60 * 1000;
/** A take-over takes microseconds; a guard older than this was left by a process that died in one. */
const GUARD_STALE_MS = 10_000;

/** The start time of process `pid` (field 22 of /proc/PID/stat), or undefined where there is no /proc. */
export function processStart(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}

/** Whether a process with this pid runs on this host (EPERM: it does, as another user). */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Whether the process that took a lock may still be running: false when it certainly is not (no such pid here, or
 * the pid belongs to a process that started since), true otherwise. A lock from another host, whose pid means nothing
 * here, counts as running until it is an hour old.
 */
export function ownerAlive(owner: LockOwner, now: Date = new Date()): boolean {
  if (owner.host !== hostname()) return now.getTime() - Date.parse(owner.since) < FOREIGN_STALE_MS;
  if (!running(owner.pid)) return false;
  // This thread's pid and thread, on a lock it does not hold: an earlier process's that had the same pid.
  if (owner.pid === process.pid && (owner.thread ?? 0) === threadId) return held.has(owner.token);
  const start = owner.start === undefined ? undefined : processStart(owner.pid);
  return start === undefined || start === owner.start;
}

/** A name for this process's scratch directories: `PID-HEX`, so that a leftover says whose it was. */
export const scratchToken = () => `${process.pid}-${randomBytes(4).toString('hex')}`;

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The scratch directories of an entry beside it: `.ENTRY.PID-HEX.KIND`. */
export const scratchPath = (root: string, entry: string, token: string, kind: 'partial' | 'old' | 'locking' | 'stale' | 'released' | 'breaking') =>
  join(root, `.${entry}.${token}.${kind}`);

/**
 * Removes the entry's scratch directories that a process left behind when it died (its pid no longer runs here).
 * Called with the entry's lock held, so that no live install's folder is touched.
 */
export async function removeLeftovers(root: string, entry: string): Promise<string[]> {
  const pattern = new RegExp(`^\\.${escapeRegExp(entry)}\\.(\\d+)-[0-9a-f]{8}\\.(partial|old|locking|stale|released|breaking)$`);
  const removed: string[] = [];
  for (const name of await readdir(root).catch(() => [] as string[])) {
    const match = pattern.exec(name);
    if (!match) continue;
    const pid = Number(match[1]);
    if (pid === process.pid || running(pid)) continue;
    await rm(join(root, name), { recursive: true, force: true });
    removed.push(name);
  }
  return removed;
}

async function readOwner(lock: string): Promise<LockOwner | 'none' | 'unreadable'> {
  let text: string;
  try {
    text = await readFile(join(lock, 'owner.json'), 'utf8');
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'none' : 'unreadable';
  }
  try {
    const owner = JSON.parse(text) as LockOwner;
    return typeof owner.pid === 'number' && typeof owner.token === 'string' ? owner : 'unreadable';
  } catch {
    return 'unreadable';
  }
}

const errno = (error: unknown) => (error as NodeJS.ErrnoException).code;

/** Tries once to take the lock: true when this process now holds it. */
async function tryAcquire(root: string, entry: string, owner: LockOwner): Promise<boolean> {
  const lock = join(root, `.${entry}.lock`);
  const building = scratchPath(root, entry, owner.token, 'locking');
  await mkdir(building, { recursive: true });
  try {
    await writeFile(join(building, 'owner.json'), JSON.stringify(owner) + '\n');
    await rename(building, lock);
    return true;
  } catch (error) {
    // Another process's lock is there: renaming onto a directory that is not empty fails.
    if (errno(error) === 'ENOTEMPTY' || errno(error) === 'EEXIST') return false;
    throw error;
  } finally {
    await rm(building, { recursive: true, force: true });
  }
}

/**
 * Takes over a stale lock whose owner had `token`: only one process may take over a given owner's lock (a guard
 * directory per token), and it moves the lock away only after checking, behind the guard, that it is still that
 * owner's. Whether it moved it away.
 */
async function breakStale(root: string, entry: string, token: string, mine: string): Promise<boolean> {
  const lock = join(root, `.${entry}.lock`);
  const guard = scratchPath(root, entry, token, 'breaking');
  try {
    await mkdir(guard);
  } catch (error) {
    if (errno(error) !== 'EEXIST') throw error;
    // Another process is taking it over; unless it died doing so, leave it the lock.
    const made = await stat(guard).then((s) => s.mtimeMs, () => undefined);
    if (made !== undefined && Date.now() - made > GUARD_STALE_MS) await rm(guard, { recursive: true, force: true });
    return false;
  }
  try {
    const owner = await readOwner(lock);
    const still = typeof owner === 'object' ? owner.token === token : token === 'ownerless';
    if (!still) return false;
    const aside = scratchPath(root, entry, mine, 'stale');
    try {
      await rename(lock, aside);
    } catch (error) {
      if (errno(error) === 'ENOENT') return false;
      throw error;
    }
    await rm(aside, { recursive: true, force: true });
    return true;
  } finally {
    await rmdir(guard).catch(() => undefined);
  }
}

export interface LockOptions {
  /** Told once when the lock is held by another process, and when a stale lock is taken over. */
  readonly log?: (line: string) => void;
  /** How long to wait between looks at a held lock: from `first` ms, doubling up to `most`. */
  readonly poll?: { readonly first: number; readonly most: number };
}

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Runs `body` holding the lock of cache entry `entry` in `root`, which other processes (and other calls in this one)
 * wait for. The lock is released when `body` settles; a process that dies holding it leaves a lock the next one
 * takes over.
 */
export async function withEntryLock<T>(root: string, entry: string, body: () => Promise<T>, options: LockOptions = {}): Promise<T> {
  const { log = () => {}, poll = { first: 25, most: 500 } } = options;
  await mkdir(root, { recursive: true });
  const lock = join(root, `.${entry}.lock`);
  const start = processStart(process.pid);
  const owner: LockOwner = {
    pid: process.pid,
    host: hostname(),
    since: new Date().toISOString(),
    ...(start === undefined ? {} : { start }),
    thread: threadId,
    token: scratchToken(),
  };
  let told: string | undefined;
  for (let wait = poll.first; ; wait = Math.min(wait * 2, poll.most)) {
    if (await tryAcquire(root, entry, { ...owner, since: new Date().toISOString() })) break;
    const holder = await readOwner(lock);
    const there = holder !== 'none' || (await stat(lock).then(() => true, () => false));
    if (there && (typeof holder !== 'object' || !ownerAlive(holder))) {
      const who = typeof holder === 'object' ? `pid ${holder.pid} on ${holder.host} since ${holder.since}` : 'no owner';
      if (await breakStale(root, entry, typeof holder === 'object' ? holder.token : 'ownerless', owner.token)) {
        log(`took over the stale lock ${lock} (${who}, no longer running)`);
        continue;
      }
    } else if (typeof holder === 'object' && told !== holder.token) {
      told = holder.token;
      log(
        holder.host === owner.host
          ? `waiting for pid ${holder.pid}, which is installing into ${join(root, entry)} (lock ${lock})`
          : `waiting for pid ${holder.pid} on ${holder.host}, which is installing into ${join(root, entry)} since ${holder.since}; ` +
              `a lock from another host is taken over once it is an hour old: remove ${lock} if no run is installing there`,
      );
    }
    await pause(wait);
  }
  held.add(owner.token);
  try {
    return await body();
  } finally {
    held.delete(owner.token);
    await release(root, entry, owner.token);
  }
}

/** Moves the lock away before removing it, so that no one sees a lock without its owner; puts back one not ours. */
async function release(root: string, entry: string, token: string): Promise<void> {
  const lock = join(root, `.${entry}.lock`);
  const released = scratchPath(root, entry, token, 'released');
  try {
    await rename(lock, released);
  } catch {
    return; // taken over already, as stale (another host's, an hour old)
  }
  const owner = await readOwner(released);
  if (typeof owner === 'object' && owner.token !== token) {
    await rename(released, lock).catch(() => undefined);
    return;
  }
  await rm(released, { recursive: true, force: true });
}
