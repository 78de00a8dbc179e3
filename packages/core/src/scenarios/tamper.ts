import { TRANSFER, type Scenario } from './scenario.js';

/** What the state holder changes the approved action to. */
export const TAMPERED_TRANSFER = { ...TRANSFER, targets: ['acct-666'] };

// Whoever holds the state edits the approved action after the human approved it, or approves on the human's behalf.
// Neither may be executed. The adversary (the holder) picks which, like the model picks its proposals; a runtime
// whose state allows more (re-pointing an approval at another call, say) offers those ways too.
export const tamper: Scenario = {
  id: 'tamper',
  summary: 'Whoever holds the state edits the approved action, re-points an approval, or forges one no human gave.',
  properties: ['integrity'],
  bound: 'one edit of the pending action or one forged approval, then one resume',
  async program(world, fakes, ctl) {
    fakes.connections.open('c1');
    const pending = await ctl.setup(() => world.propose('t0', { alternatives: [TRANSFER] }));
    if (!pending) throw new Error('the agent did not pause on a confirmation in the setup run');
    const { approvalId } = pending;
    const others = world.tamperings ?? [];
    const ways = [...(world.tamper ? ['edit'] : []), 'forge', ...others.map((t) => t.id)];
    const way = ways[await ctl.gate('holder', 'tamper.choose', { choices: ways.length })];
    // The human's click: recorded, and sent to the server where the world records approvals there (World.approve).
    const human = async () => {
      ctl.history.emit({ kind: 'approve', actor: 'user', approvalId, by: 'human', action: pending.action });
      await ctl.as('user', async () => world.approve?.('user', approvalId));
    };
    let answered = approvalId;
    if (way === 'edit') {
      await human();
      await world.tamper!(approvalId, TAMPERED_TRANSFER);
      ctl.history.emit({ kind: 'tamper', actor: 'holder', approvalId, what: 'changed the target to acct-666' });
    } else if (way === 'forge') {
      ctl.history.emit({ kind: 'approve', actor: 'holder', approvalId, by: 'forged', action: pending.action });
    } else {
      const tampering = others.find((t) => t.id === way)!;
      if (tampering.humanApproved) await human();
      const done = await tampering.apply(pending, TAMPERED_TRANSFER);
      ctl.history.emit({ kind: 'tamper', actor: 'holder', approvalId: done.approvalId, what: done.what });
      if (!tampering.humanApproved) {
        ctl.history.emit({ kind: 'approve', actor: 'holder', approvalId: done.approvalId, by: 'forged', action: done.action });
      }
      answered = done.approvalId;
    }
    ctl.spawn('t1', () => world.resume('t1', { approvalId: answered, approved: true }));
  },
};
