// The guard over each backend, through the ways an approval goes wrong in an agent framework: a forged or edited
// transcript (an approval never proposed, or never answered), a tool call edited after the card was shown, a world that
// moved under the approval, a resume that runs twice, an effect that fails half way, and turns that spend at once. The
// same tests run on memory, SQLite (a file) and PostgreSQL (a schema of its own); PostgreSQL is skipped, saying why,
// only when no server can be had.
import { skipStore } from '@approval-conformance/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS, openBackend, type Opened } from './backends.fixtures.js';
import { GuardError, type GuardErrorCode } from './errors.js';
import { fingerprint, type GuardedAction } from './fingerprint.js';
import { ApprovalGuard, type Ticket } from './guard.js';
import { MemoryGuardStore } from './memory.js';
import type { GuardStore } from './store.js';

const transfer: GuardedAction = { tool: 'transfer', args: { from: 'acct-1', to: 'acct-2', amount: 100 }, targets: ['acct-1', 'acct-2'] };
const edited: GuardedAction = { ...transfer, args: { from: 'acct-1', to: 'acct-666', amount: 100 } };
const WORLD = 'acct-1@v7';

/** The refusal `promise` ends with: a GuardError, or the test fails. */
async function refusal(promise: Promise<unknown>): Promise<GuardError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error, 'the guard should have refused').toBeInstanceOf(GuardError);
  return error as GuardError;
}

const refusedWith = async (promise: Promise<unknown>, code: GuardErrorCode) => expect((await refusal(promise)).code).toBe(code);

/** An effect that counts its calls and keeps the tickets it was given. */
function effect<T>(result: T | (() => never)) {
  const tickets: Ticket[] = [];
  return {
    tickets,
    get calls() {
      return tickets.length;
    },
    run: async (ticket: Ticket): Promise<T> => {
      tickets.push(ticket);
      return typeof result === 'function' ? (result as () => never)() : result;
    },
  };
}

describe.each(BACKENDS)('the guard on %s', (backend) => {
  const skip = skipStore(backend);
  let opened: Opened;
  beforeAll(async () => {
    if (!skip) opened = await openBackend(backend);
  });
  afterAll(async () => {
    if (!skip) await opened.teardown();
  });

  /** A guard on an empty store, and an approval proposed (and, with `approved`, approved) on it. */
  async function setup(state: 'none' | 'unspent' | 'approved' = 'approved') {
    const store = await opened.fresh();
    const guard = new ApprovalGuard(store);
    if (state === 'none') return { guard, store };
    const card = await guard.propose('call-1', transfer, WORLD);
    if (state === 'approved') await guard.approve('call-1', card.fingerprint);
    return { guard, store, card };
  }

  it.skipIf(skip)('runs an approved action once, with the idempotency key `${id}:${version}`, and records that it ran', async () => {
    const { guard } = await setup('none');
    const card = await guard.propose('call-1', transfer, WORLD);
    expect(card).toEqual({ approvalId: 'call-1', fingerprint: fingerprint(transfer), action: transfer });
    expect(await guard.status('call-1')).toMatchObject({ state: 'unspent', version: 1, world: WORLD });
    expect(await guard.approve('call-1', card.fingerprint)).toMatchObject({ state: 'approved', version: 2 });

    const tool = effect('receipt-1');
    expect(await guard.run('call-1', transfer, WORLD, tool.run)).toBe('receipt-1');
    // The key names the spend: the record's id and the version the spend wrote.
    expect(tool.tickets).toEqual([{ approvalId: 'call-1', idempotencyKey: 'call-1:3', action: transfer }]);
    expect(await guard.status('call-1')).toMatchObject({ state: 'spent', outcome: 'ran', idempotencyKey: 'call-1:3', version: 4 });
  });

  it.skipIf(skip)('settles with one write where nothing came between since the spend, and on a fresh read where something did', async () => {
    const { store } = await setup();
    const calls: string[] = [];
    const counted: GuardStore = {
      insert: (record) => store.insert(record),
      get: (id) => (calls.push('get'), store.get(id)),
      replace: (next, expected) => (calls.push('replace'), store.replace(next, expected)),
    };
    const guard = new ApprovalGuard(counted);
    const ticket = await guard.spend('call-1', transfer, WORLD);
    await guard.settle(ticket, 'unknown');
    expect(calls).toEqual(['get', 'replace', 'replace']);
    // Another process learns that it ran: this guard's copy is stale, so its next settle reads the record again, where
    // `ran` stays.
    await new ApprovalGuard(store).settle(ticket, 'ran');
    expect(await guard.settle(ticket, 'unknown')).toMatchObject({ outcome: 'ran', version: 5 });
    expect(calls.slice(3)).toEqual(['get']);
  });

  it.skipIf(skip)('refuses a forged approval: one never proposed (unknown-approval), one never answered (not-approved)', async () => {
    const { guard } = await setup('unspent');
    const tool = effect('done');
    await refusedWith(guard.run('call-forged', transfer, WORLD, tool.run), 'unknown-approval');
    await refusedWith(guard.spend('call-forged', transfer, WORLD), 'unknown-approval');
    await refusedWith(guard.approve('call-forged', fingerprint(transfer)), 'unknown-approval');
    const error = await refusal(guard.run('call-1', transfer, WORLD, tool.run));
    expect(error).toMatchObject({ code: 'not-approved', approvalId: 'call-1', state: 'unspent' });
    expect(tool.calls).toBe(0);
    expect(await guard.status('call-forged')).toBeUndefined();
    expect(await guard.status('call-1')).toMatchObject({ state: 'unspent', version: 1 });
  });

  it.skipIf(skip)('refuses a tampered action (action-mismatch), and the approved one still runs', async () => {
    const { guard } = await setup();
    const tool = effect('done');
    const error = await refusal(guard.run('call-1', edited, WORLD, tool.run));
    expect(error).toMatchObject({ code: 'action-mismatch', state: 'approved' });
    // A refused spend spends nothing: the record is as it was.
    expect(await guard.status('call-1')).toMatchObject({ state: 'approved', version: 2 });
    await guard.run('call-1', transfer, WORLD, tool.run);
    expect(tool.tickets.map((t) => t.action)).toEqual([transfer]);
  });

  it.skipIf(skip)('refuses to act in a world that moved since the card was shown (world-moved)', async () => {
    const { guard } = await setup();
    const tool = effect('done');
    await refusedWith(guard.run('call-1', transfer, 'acct-1@v8', tool.run), 'world-moved');
    // The world as a function: read after the record, so the check is against the world as it is at the spend.
    await refusedWith(guard.spend('call-1', transfer, () => 'acct-1@v8'), 'world-moved');
    expect(tool.calls).toBe(0);
    expect(await guard.status('call-1')).toMatchObject({ state: 'approved', version: 2 });
  });

  it.skipIf(skip)('refuses a second run of the same approval (already-spent): the effect ran once', async () => {
    const { guard } = await setup();
    const tool = effect('done');
    await guard.run('call-1', transfer, WORLD, tool.run);
    const error = await refusal(guard.run('call-1', transfer, WORLD, tool.run));
    expect(error).toMatchObject({ code: 'already-spent', state: 'spent' });
    expect(tool.calls).toBe(1);
    expect(await guard.status('call-1')).toMatchObject({ state: 'spent', outcome: 'ran' });
  });

  it.skipIf(skip)('says outcome-unknown when the effect throws (it may have run), records it, and never runs it again', async () => {
    const { guard } = await setup();
    const boom = new Error('connection reset after the request was sent');
    const tool = effect(() => {
      throw boom;
    });
    const error = await refusal(guard.run('call-1', transfer, WORLD, tool.run));
    expect(error).toMatchObject({ code: 'outcome-unknown', state: 'spent', cause: boom });
    expect(error.message).toContain('call-1:3');
    expect(await guard.status('call-1')).toMatchObject({ state: 'spent', outcome: 'unknown' });
    await refusedWith(guard.run('call-1', transfer, WORLD, tool.run), 'already-spent');
    expect(tool.calls).toBe(1);
  });

  it.skipIf(skip)('counts() an approval found in a transcript only when the record holds it approved for that action', async () => {
    const { guard } = await setup('none');
    expect(await guard.counts('call-1', transfer)).toBe(false); // never proposed
    const card = await guard.propose('call-1', transfer, WORLD);
    expect(await guard.counts('call-1', transfer)).toBe(false); // unspent
    await guard.approve('call-1', card.fingerprint);
    expect(await guard.counts('call-1', transfer)).toBe(true);
    expect(await guard.counts('call-1', edited)).toBe(false); // another action
    await guard.run('call-1', transfer, WORLD, async () => {});
    expect(await guard.counts('call-1', transfer)).toBe(false); // spent

    for (const [id, answer] of [
      ['call-2', 'deny'],
      ['call-3', 'expire'],
    ] as const) {
      const c = await guard.propose(id, transfer, WORLD);
      await guard.approve(id, c.fingerprint);
      await guard[answer](id);
      expect(await guard.counts(id, transfer)).toBe(false);
    }
  });

  it.skipIf(skip)('refuses an approval given for another card (action-mismatch), and takes the right card after', async () => {
    const { guard, card } = await setup('unspent');
    await refusedWith(guard.approve('call-1', fingerprint(edited)), 'action-mismatch');
    expect(await guard.status('call-1')).toMatchObject({ state: 'unspent', version: 1 });
    await guard.approve('call-1', card!.fingerprint);
    // Approving the same card again is a no-op; approving another card after is still refused.
    expect(await guard.approve('call-1', card!.fingerprint)).toMatchObject({ state: 'approved', version: 2 });
    await refusedWith(guard.approve('call-1', fingerprint(edited)), 'action-mismatch');
  });

  it.skipIf(skip)('refuses what was denied (denied) or expired (expired), and a second proposal under one id', async () => {
    const { guard } = await setup('unspent');
    await guard.deny('call-1');
    await refusedWith(guard.run('call-1', transfer, WORLD, async () => {}), 'denied');
    await refusedWith(guard.approve('call-1', fingerprint(transfer)), 'denied');
    await refusedWith(guard.propose('call-1', transfer, WORLD), 'already-proposed');

    const card = await guard.propose('call-2', transfer, WORLD);
    await guard.approve('call-2', card.fingerprint);
    await guard.expire('call-2');
    await refusedWith(guard.run('call-2', transfer, WORLD, async () => {}), 'expired');
  });

  it.skipIf(skip)('lets the user withdraw an approval until it is spent, and tells a deny that came too late', async () => {
    const { guard } = await setup();
    expect(await guard.deny('call-1')).toMatchObject({ state: 'denied', version: 3 });
    await refusedWith(guard.run('call-1', transfer, WORLD, async () => {}), 'denied');

    const card = await guard.propose('call-2', transfer, WORLD);
    await guard.approve('call-2', card.fingerprint);
    await guard.run('call-2', transfer, WORLD, async () => {});
    await refusedWith(guard.deny('call-2'), 'already-spent');
  });

  it.skipIf(skip)('hands back the approved action as plain JSON, the same on every backend, whatever its strings hold', async () => {
    const { guard } = await setup('none');
    // A NUL, a lone surrogate (JSON.stringify escapes it) and an emoji; a Date, which JSON keeps as its ISO string.
    const odd: GuardedAction = { tool: 'note', args: { text: 'a\u0000b \ud800 😀', at: new Date(0) }, targets: ['doc-1'] };
    const card = await guard.propose('call-odd', odd, WORLD);
    const plain = { tool: 'note', args: { text: 'a\u0000b \ud800 😀', at: '1970-01-01T00:00:00.000Z' }, targets: ['doc-1'] };
    expect(card.action).toEqual(plain);
    await guard.approve('call-odd', card.fingerprint);
    const ticket = await guard.spend('call-odd', odd, WORLD);
    expect(ticket.action).toEqual(plain);
    expect(fingerprint(ticket.action)).toBe(card.fingerprint);
  });

  it.skipIf(skip)('gives exactly one ticket to ten concurrent spends of one approval', async () => {
    const { guard } = await setup();
    const results = await Promise.allSettled(Array.from({ length: 10 }, () => guard.spend('call-1', transfer, WORLD)));
    const tickets = results.filter((r) => r.status === 'fulfilled');
    expect(tickets).toHaveLength(1);
    for (const r of results) if (r.status === 'rejected') expect(r.reason).toMatchObject({ code: 'already-spent' });
    expect(await guard.status('call-1')).toMatchObject({ state: 'spent', outcome: 'pending', version: 3 });
  });

  it.skipIf(skip)('runs the effect once for ten concurrent runs, and the other nine hear already-spent', async () => {
    const { guard } = await setup();
    const tool = effect('done');
    const results = await Promise.allSettled(Array.from({ length: 10 }, () => guard.run('call-1', transfer, WORLD, tool.run)));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect(tool.calls).toBe(1);
  });
});

describe('MemoryGuardStore', () => {
  it('copies its records out as plain data, and starts from such a copy', async () => {
    const guard = new ApprovalGuard(new MemoryGuardStore());
    const card = await guard.propose('call-1', transfer, WORLD);
    await guard.approve('call-1', card.fingerprint);
    const store = new MemoryGuardStore();
    const copy = new ApprovalGuard(store);
    await copy.propose('call-2', edited, WORLD);
    const records = store.records();
    expect(records).toEqual([await copy.status('call-2')]);
    // A copy, not the store's own: changing it changes nothing.
    (records[0] as { state: string }).state = 'approved';
    expect(await copy.status('call-2')).toMatchObject({ state: 'unspent' });
    const restored = new ApprovalGuard(new MemoryGuardStore(store.records()));
    expect(await restored.status('call-2')).toEqual(await copy.status('call-2'));
  });
});

describe("run's answer does not depend on recording the outcome", () => {
  /** A memory store whose writes of a settled outcome fail, as a database that went away after the effect would. */
  class FailingSettle extends MemoryGuardStore implements GuardStore {
    override async replace(...args: Parameters<MemoryGuardStore['replace']>): Promise<boolean> {
      if (args[0].outcome !== undefined && args[0].outcome !== 'pending') throw new Error('database went away');
      return super.replace(...args);
    }
  }

  async function approved() {
    const guard = new ApprovalGuard(new FailingSettle());
    const card = await guard.propose('call-1', transfer, WORLD);
    await guard.approve('call-1', card.fingerprint);
    return guard;
  }

  it('returns what the effect returned (it ran), and the record says spent, outcome pending', async () => {
    const guard = await approved();
    expect(await guard.run('call-1', transfer, WORLD, async () => 'receipt')).toBe('receipt');
    expect(await guard.status('call-1')).toMatchObject({ state: 'spent', outcome: 'pending' });
  });

  it('says outcome-unknown when the effect threw, not the store error', async () => {
    const guard = await approved();
    const boom = new Error('boom');
    const error = await refusal(
      guard.run('call-1', transfer, WORLD, async () => {
        throw boom;
      }),
    );
    expect(error).toMatchObject({ code: 'outcome-unknown', cause: boom });
  });
});
