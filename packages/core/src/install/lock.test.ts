// Two real processes installing into one cache: the entry is installed once, whole, and both load it; a lock left by a
// killed process is taken over. Offline: the processes install with a fake installer (install-race.fixtures.ts) that
// writes its files one by one. The order of events is set by the processes' own messages, never by a delay.
import { fork, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { threadId } from 'node:worker_threads';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { FromChild } from './install-race.fixtures.js';
import { ownerAlive, processStart, withEntryLock } from './lock.js';

const FIXTURE = fileURLToPath(new URL('./install-race.fixtures.ts', import.meta.url));
const TSX = createRequire(import.meta.url).resolve('tsx');
const PARTS = 100;
const TIMEOUT = 120_000;

interface Child {
  readonly process: ChildProcess;
  readonly pid: number;
  readonly logs: string[];
  /** The next message of this type (or one already received and not yet taken). */
  next<K extends FromChild['type']>(type: K): Promise<Extract<FromChild, { type: K }>>;
  /** The first log line matching. */
  logged(pattern: RegExp): Promise<string>;
  readonly exited: Promise<number | null>;
}

const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

const scratches: string[] = [];
afterAll(async () => {
  for (const dir of scratches) await rm(dir, { recursive: true, force: true });
});

async function scratch() {
  const dir = await mkdtemp(join(tmpdir(), 'ac-install-lock-'));
  scratches.push(dir);
  const cache = join(dir, 'cache');
  const log = join(dir, 'installs.log');
  await writeFile(log, '');
  return { cache, log };
}

function start(cache: string, log: string, entry: string, mode: 'hold' | 'race' | 'free'): Child {
  const child = fork(FIXTURE, [entry, mode], {
    execArgv: ['--import', TSX, '--conditions=@approval-conformance/source'],
    env: { ...process.env, APPROVAL_CONFORMANCE_CACHE: cache, INSTALL_LOG: log },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  children.push(child);
  const received: FromChild[] = [];
  const waiting: (() => void)[] = [];
  const logs: string[] = [];
  child.on('message', (data) => {
    const message = data as FromChild;
    received.push(message);
    if (message.type === 'log') logs.push(message.line);
    for (const wake of waiting.splice(0)) wake();
  });
  // 'close', not 'exit': by then every message the child sent has been received.
  let closed = false;
  const exited = new Promise<number | null>((resolve) =>
    child.on('close', (code) => {
      closed = true;
      resolve(code);
    }),
  );
  const until = async <T,>(find: () => T | undefined, what: string): Promise<T> => {
    for (;;) {
      const found = find();
      if (found !== undefined) return found;
      if (closed) throw new Error(`pid ${child.pid} exited before ${what}: ${JSON.stringify(received)}`);
      await Promise.race([new Promise<void>((resolve) => waiting.push(resolve)), exited]);
    }
  };
  return {
    process: child,
    pid: child.pid!,
    logs,
    exited,
    next: (type) =>
      until(() => {
        const i = received.findIndex((m) => m.type === type || m.type === 'failed');
        if (i < 0) return undefined;
        const [message] = received.splice(i, 1);
        if (message!.type === 'failed' && type !== 'failed') throw new Error(`pid ${child.pid} failed: ${message!.message}`);
        return message as Extract<FromChild, { type: typeof type }>;
      }, type),
    logged: (pattern) => until(() => logs.find((line) => pattern.test(line)), String(pattern)),
  };
}

const installs = async (log: string) => (await readFile(log, 'utf8')).split('\n').filter(Boolean);

describe('installIsolated with other processes on the same cache', () => {
  it('installs an entry once when two processes want it: the second waits, then loads the first one’s install', { timeout: TIMEOUT }, async () => {
    const { cache, log } = await scratch();
    const a = start(cache, log, 'fake@1.0.0', 'hold');
    await a.next('installing'); // a holds the entry's lock, three of its files written

    // Another version installs meanwhile: the lock is the entry's, not the cache's.
    const other = start(cache, log, 'fake@2.0.0', 'free');
    expect(await other.next('loaded')).toMatchObject({ complete: true, installedBy: other.pid });
    expect(await other.exited).toBe(0);

    const b = start(cache, log, 'fake@1.0.0', 'free');
    expect(await b.logged(/^waiting for pid \d+/)).toContain(`waiting for pid ${a.pid}, which is installing into ${join(cache, 'fake@1.0.0')}`);
    // While b waits, the entry is not there: a writes into a scratch folder beside it.
    expect(await readdir(cache)).not.toContain('fake@1.0.0');
    a.process.send('continue');

    const [loadedA, loadedB] = await Promise.all([a.next('loaded'), b.next('loaded')]);
    expect(loadedA).toEqual({ type: 'loaded', dir: join(cache, 'fake@1.0.0') + '/', complete: true, parts: PARTS, installedBy: a.pid });
    expect(loadedB).toEqual(loadedA);
    expect(b.logs.filter((line) => line.startsWith('installing'))).toEqual([]);
    expect(await Promise.all([a.exited, b.exited])).toEqual([0, 0]);
    expect(await installs(log)).toEqual([`fake@2.0.0 ${other.pid}`, `fake@1.0.0 ${a.pid}`]);
    // One entry per version, no lock and no scratch folder left.
    expect((await readdir(cache)).sort()).toEqual(['fake@1.0.0', 'fake@2.0.0']);
  });

  it('ends with one whole install, loaded by both, when two processes start at once', { timeout: TIMEOUT }, async () => {
    const { cache, log } = await scratch();
    const [a, b] = [start(cache, log, 'fake@1.0.0', 'race'), start(cache, log, 'fake@1.0.0', 'race')];
    // Both booted: let them go together. Which one installs is up to them; the outcome must not be.
    await Promise.all([a!.next('ready'), b!.next('ready')]);
    a!.process.send('go');
    b!.process.send('go');
    const [loadedA, loadedB] = await Promise.all([a!.next('loaded'), b!.next('loaded')]);
    const lines = await installs(log);
    expect(lines).toHaveLength(1);
    const winner = Number(lines[0]!.split(' ')[1]);
    expect([a!.pid, b!.pid]).toContain(winner);
    for (const loaded of [loadedA, loadedB]) expect(loaded).toMatchObject({ complete: true, parts: PARTS, installedBy: winner });
    expect(await Promise.all([a!.exited, b!.exited])).toEqual([0, 0]);
    expect(await readdir(cache)).toEqual(['fake@1.0.0']);
  });

  it('takes over the lock of a process killed mid-install, and clears what it left', { timeout: TIMEOUT }, async () => {
    const { cache, log } = await scratch();
    const a = start(cache, log, 'fake@1.0.0', 'hold');
    await a.next('installing');
    a.process.kill('SIGKILL');
    await a.exited;
    const left = (await readdir(cache)).sort();
    expect(left).toEqual([expect.stringMatching(new RegExp(`^\\.fake@1\\.0\\.0\\.${a.pid}-[0-9a-f]{8}\\.partial$`)), '.fake@1.0.0.lock']);
    expect(JSON.parse(await readFile(join(cache, '.fake@1.0.0.lock', 'owner.json'), 'utf8'))).toMatchObject({ pid: a.pid, host: hostname() });

    const b = start(cache, log, 'fake@1.0.0', 'free');
    expect(await b.next('loaded')).toMatchObject({ complete: true, parts: PARTS, installedBy: b.pid });
    expect(b.logs.some((line) => line.startsWith(`took over the stale lock ${join(cache, '.fake@1.0.0.lock')} (pid ${a.pid} on `))).toBe(true);
    expect(b.logs).toContain(`removed ${join(cache, left[0]!)}, left by a run that stopped`);
    expect(await b.exited).toBe(0);
    expect(await installs(log)).toEqual([`fake@1.0.0 ${b.pid}`]);
    expect(await readdir(cache)).toEqual(['fake@1.0.0']);
  });
});

describe('withEntryLock', () => {
  const owner = { pid: process.pid, host: hostname(), since: new Date().toISOString(), thread: threadId, token: 't' };

  it('tells a live owner from a gone one: its pid, the start of the process behind it, and its host', () => {
    // This process, holding no lock: the lock is an earlier process's that had the same pid.
    expect(ownerAlive(owner)).toBe(false);
    expect(ownerAlive({ ...owner, thread: threadId + 1 })).toBe(true);
    expect(ownerAlive({ ...owner, pid: process.ppid })).toBe(true);
    const parentStart = processStart(process.ppid);
    if (parentStart !== undefined) {
      expect(ownerAlive({ ...owner, pid: process.ppid, start: parentStart })).toBe(true);
      // The pid is running, but it is another process than the one that took the lock: the pid was reused.
      expect(ownerAlive({ ...owner, pid: process.ppid, start: String(Number(parentStart) + 1) })).toBe(false);
    }
    // Another host's pid means nothing here: such a lock is waited for, up to an hour.
    const foreign = { ...owner, pid: 1 << 22, host: `${hostname()}-elsewhere`, since: '2025-01-01T00:00:00.000Z' };
    expect(ownerAlive(foreign, new Date('2025-01-01T00:59:00.000Z'))).toBe(true);
    expect(ownerAlive(foreign, new Date('2025-01-01T01:01:00.000Z'))).toBe(false);
  });

  it('runs the bodies of one entry one at a time within a process too, and releases the lock when a body throws', async () => {
    const { cache } = await scratch();
    await mkdir(cache, { recursive: true });
    const events: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let entered!: () => void;
    const inside = new Promise<void>((resolve) => (entered = resolve));
    const first = withEntryLock(cache, 'e', async () => {
      events.push('first in');
      entered();
      await gate;
      events.push('first out');
      throw new Error('boom');
    });
    await inside;
    let waiting!: () => void;
    const waited = new Promise<void>((resolve) => (waiting = resolve));
    const second = withEntryLock(cache, 'e', async () => void events.push('second in'), {
      log: (line) => {
        if (line.startsWith(`waiting for pid ${process.pid}`)) waiting();
      },
      poll: { first: 1, most: 5 },
    }).then(() => events.push('second out'));
    await waited;
    expect(events).toEqual(['first in']);
    release();
    await expect(first).rejects.toThrow('boom');
    await second;
    expect(events).toEqual(['first in', 'first out', 'second in', 'second out']);
    expect(await readdir(cache)).toEqual([]);
  });

  it('takes over a lock whose owner is not running, and one with no owner at all', async () => {
    const { cache } = await scratch();
    const lock = join(cache, '.e.lock');
    await mkdir(lock, { recursive: true });
    // A pid above Linux's pid_max, so certainly not running.
    await writeFile(join(lock, 'owner.json'), JSON.stringify({ ...owner, pid: 1 << 23, token: '8388608-00000000' }));
    const lines: string[] = [];
    expect(await withEntryLock(cache, 'e', async () => 'mine', { log: (line) => lines.push(line) })).toBe('mine');
    expect(lines).toEqual([expect.stringMatching(/^took over the stale lock .*\.e\.lock \(pid 8388608 on .*, no longer running\)$/)]);

    await mkdir(lock);
    await writeFile(join(lock, 'stray'), '');
    lines.length = 0;
    expect(await withEntryLock(cache, 'e', async () => 'mine again', { log: (line) => lines.push(line) })).toBe('mine again');
    expect(lines).toEqual([expect.stringMatching(/\(no owner, no longer running\)$/)]);
    expect(await readdir(cache)).toEqual([]);
  });
});
