// The server's ops behind gates. The ops keep the threads and runs in one object in memory, and every read or write
// of it goes through their persistence's `with`: each such call waits at a gate of the turn whose code makes it, then
// runs the server's own code. That is where two requests to a real server interleave: each call is atomic (the
// object is in memory), and the requests' async code interleaves between calls. The gate is named for the operation
// that made the call (`runs.put`, `threads.state.post`), which the operations' wrappers tell it.
//
// The queue's `next` is a generator that claims one run at a time and hands it to the worker before it claims the
// next: each step of it (each claim, and the end) waits at a gate of its own.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Access } from '@approval-conformance/core/contract';
import type { Server } from './server.js';

/** What the world in this process gives the gates: its gate, and whose code is running. */
export interface OpsHooks {
  /** Waits at a gate of the running code's turn, declaring `access` (none: ordered with everything). */
  readonly gate: (label: string, access: Access | undefined) => Promise<void>;
  /**
   * After a call of the ops' store: it read the store (every call is handed the whole of it), reported whatever its
   * gate declared. What it wrote is seen in the store itself, around each release (`World.contents`, `opsText`):
   * comparing the store around each call as well cost the server's cells about half their time again.
   */
  readonly touched: (label: string) => void;
  /** After a write that can end a run or let one start: turns waiting for their runs look again. */
  readonly changed: () => void;
}

/** The ops' state, as the gates declare it: one key, as the server keeps it in one object. */
export const OPS_KEY = 'app:server-ops';
const READ: Access = { key: OPS_KEY, mode: 'read' };
const WRITE: Access = { key: OPS_KEY, mode: 'write' };

/**
 * What each operation's calls touch. A cancel aborts a running run's worker, which then stops at its next step
 * whatever its gates declare, and a run's deletion (a pending run cancelled under rollback) deletes the run's
 * checkpoints too: those declare nothing, and so are ordered with everything. (Declaring a deletion as a write of the
 * ops only was tried: the check of declarations caught it deleting a checkpoint under rollback.) Assistants are
 * written once, at the server's start: their reads are not gated.
 */
const CALLS: Readonly<Record<string, Access | undefined | 'ungated'>> = {
  'threads.get': READ,
  'threads.put': WRITE,
  'threads.patch': WRITE,
  'threads.setStatus': WRITE,
  'threads.delete': WRITE,
  'threads.copy': WRITE,
  'threads.count': READ,
  'threads.state.get': READ,
  'threads.state.post': WRITE,
  'threads.state.bulk': WRITE,
  'threads.state.list': READ,
  'runs.put': WRITE,
  'runs.get': READ,
  'runs.search': READ,
  'runs.setStatus': WRITE,
  'runs.delete': undefined,
  'runs.cancel': undefined,
  'assistants.get': 'ungated',
  'assistants.search': 'ungated',
  'assistants.count': 'ungated',
  'assistants.getVersions': 'ungated',
};

/** Writes after which a run may have ended, or may now start. */
const CHANGES = new Set(['runs.put', 'runs.delete', 'runs.cancel', 'runs.setStatus', 'threads.setStatus', 'threads.delete']);

/** The operation whose code is running: the innermost wrapper's. */
const operation = new AsyncLocalStorage<string>();

/** Puts the gates in front of the server's ops, once per process; `hooks()` is the world running now. */
export function gateOps(server: Server, hooks: () => OpsHooks | undefined): void {
  const { ops, opsConn } = server;
  const name = (target: Record<string, any> | undefined, prefix: string) => {
    for (const key of Object.keys(CALLS)) {
      if (!key.startsWith(`${prefix}.`) || key.slice(prefix.length + 1).includes('.')) continue;
      const method = key.slice(prefix.length + 1);
      const original = target?.[method];
      if (typeof original !== 'function') continue;
      target![method] = function (this: unknown, ...args: unknown[]) {
        return operation.run(key, async () => {
          try {
            return await original.apply(this, args);
          } finally {
            if (CHANGES.has(key)) hooks()?.changed();
          }
        });
      };
    }
  };
  name(ops.threads, 'threads');
  name(ops.threads.state, 'threads.state');
  name(ops.runs, 'runs');
  name(ops.assistants, 'assistants');
  // The runs' and the state's own references to the threads, where they are other objects.
  if (ops.runs.threads && ops.runs.threads !== ops.threads) name(ops.runs.threads, 'threads');
  if (ops.threads.state?.threads && ops.threads.state.threads !== ops.threads) name(ops.threads.state.threads, 'threads');

  const withStore = opsConn.with.bind(opsConn);
  opsConn.with = async <T>(fn: (store: Record<string, any>) => T | Promise<T>): Promise<T> => {
    const call = operation.getStore() ?? 'ops';
    const access = call in CALLS ? CALLS[call] : WRITE;
    if (access === 'ungated') return withStore(fn);
    const world = hooks();
    await world?.gate(call, access);
    const result = await withStore(fn);
    world?.touched(call);
    return result;
  };

  const next = ops.runs.next;
  ops.runs.next = async function* (this: unknown) {
    const world = hooks();
    const claims = next.call(this) as AsyncGenerator<unknown>;
    try {
      for (let first = true; ; first = false) {
        await world?.gate('runs.next', WRITE);
        // The first step takes the runs created before now (by the millisecond): wait out the millisecond the newest
        // was created in, so that which runs it takes does not depend on how fast the machine is.
        if (first) untilAfterNewestRun(server);
        const step = await claims.next();
        if (step.done) return;
        yield step.value;
      }
    } finally {
      await claims.return(undefined);
    }
  };
}

/**
 * The ops' state as text: what the check of declarations compares around each release (`World.contents`).
 * A run's kwargs (its input, command and config) are set when it is created and never change after: left out.
 */
export function opsText(data: Record<string, any> | null | undefined): string {
  const { runs = {}, threads, retry_counter } = data ?? {};
  return JSON.stringify({ threads, retry_counter, runs: Object.values(runs as Record<string, Record<string, unknown>>).map(({ kwargs: _k, ...run }) => run) });
}

/** Spins until the clock is past the newest run's creation (at most a millisecond; nothing else runs meanwhile). */
function untilAfterNewestRun(server: Server): void {
  const runs = Object.values((server.opsConn.data?.['runs'] ?? {}) as Record<string, { created_at: Date }>);
  const newest = Math.max(0, ...runs.map((r) => +r.created_at));
  while (new Date().getTime() <= newest) {
    // spin
  }
}
