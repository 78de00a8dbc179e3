// Honest outcomes: a failed delivery is delivered again under the same idempotency key (`redeliver`), and after a
// crash a spent approval left pending by a process that is gone is delivered again, never spent again (`recover`).
import { describe, expect, it } from 'vitest';
import { ApprovalGuard, MemoryGuardStore, type Ticket } from './index.js';

const action = { tool: 'transfer', args: { amount: 100 }, targets: ['acct-1'] };

async function approved() {
  const guard = new ApprovalGuard(new MemoryGuardStore());
  const card = await guard.propose('a1', action, 'w1');
  await guard.approve('a1', card.fingerprint);
  return guard;
}

/** A tool that applies each idempotency key once, and can fail its first delivery after applying it. */
function tool({ failFirst = false } = {}) {
  const applied = new Set<string>();
  let deliveries = 0;
  return {
    applied,
    get deliveries() {
      return deliveries;
    },
    async deliver(ticket: Ticket) {
      deliveries++;
      const fresh = !applied.has(ticket.idempotencyKey);
      applied.add(ticket.idempotencyKey);
      if (failFirst && deliveries === 1) throw new Error('the reply was lost');
      return { applied: fresh };
    },
  };
}

describe('redeliver and recover', () => {
  it('delivers again with the same key when a delivery fails, and then knows the action ran once', async () => {
    const guard = await approved();
    const backend = tool({ failFirst: true });
    await expect(guard.run('a1', action, 'w1', (t) => backend.deliver(t), { redeliver: 1 })).resolves.toEqual({ applied: false });
    expect(backend.deliveries).toBe(2);
    expect(backend.applied.size).toBe(1);
    expect(await guard.status('a1')).toMatchObject({ state: 'spent', outcome: 'ran' });
  });

  it('without redelivery says the outcome is unknown, never that it did not happen', async () => {
    const guard = await approved();
    const backend = tool({ failFirst: true });
    await expect(guard.run('a1', action, 'w1', (t) => backend.deliver(t))).rejects.toMatchObject({ code: 'outcome-unknown' });
    expect(await guard.status('a1')).toMatchObject({ outcome: 'unknown' });
  });

  it('for a tool that takes no key, settles what a gone process left pending as unknown, and never delivers it again', async () => {
    const guard = await approved();
    const ticket = await guard.spend('a1', action, 'w1', { owner: 'p1' });
    const backend = tool();
    await backend.deliver(ticket); // p1 delivered, then died before it settled
    expect(await guard.recover('a1', 'p2')).toBe('unknown');
    expect(await guard.recover('a1', 'p3')).toBe('unknown');
    expect(backend.deliveries).toBe(1);
    expect(await guard.status('a1')).toMatchObject({ state: 'spent', outcome: 'unknown' });
  });

  it('recovers what a process that is gone left pending: the same key again, not a new spend', async () => {
    const guard = await approved();
    const ticket = await guard.spend('a1', action, 'w1', { owner: 'p1' });
    const backend = tool();
    await backend.deliver(ticket); // p1 delivered, then died before it settled
    // p1 itself (alive) leaves its own pending spend alone; p2, after the restart, delivers the same key again.
    expect(await guard.recover('a1', 'p1', (t) => backend.deliver(t))).toBe('pending');
    expect(backend.deliveries).toBe(1);
    expect(await guard.recover('a1', 'p2', (t) => backend.deliver(t))).toBe('ran');
    expect(backend.deliveries).toBe(2);
    expect(backend.applied).toEqual(new Set([ticket.idempotencyKey]));
    await expect(guard.spend('a1', action, 'w1', { owner: 'p2' })).rejects.toMatchObject({ code: 'already-spent' });
    // Once known, recovery has nothing to do.
    expect(await guard.recover('a1', 'p3', (t) => backend.deliver(t))).toBe('ran');
    expect(backend.deliveries).toBe(2);
  });

  it('recovers nothing that was never spent', async () => {
    const guard = await approved();
    expect(await guard.recover('a1', 'p2', async () => undefined)).toBeUndefined();
    expect(await guard.recover('nope', 'p2', async () => undefined)).toBeUndefined();
  });
});
