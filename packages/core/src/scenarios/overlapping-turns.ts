import { NOTIFY, proposeAndApprove, type Scenario } from './scenario.js';

// Two turns overlap on one conversation: while the first resumes an approval, the user sends a new message from a
// new connection and the second turn produces a confirmation card. Events go to the newest connection. The card the
// user then acts on must be the one the record holds, delivered where someone was listening.
export const overlappingTurns: Scenario = {
  id: 'overlapping-turns',
  summary: 'A resume and a new request overlap on one conversation; the second produces a confirmation card.',
  properties: ['shown-is-recorded'],
  bound: 'one resume overlapping one new request; then the user answers the card they were shown',
  async program(world, fakes, ctl) {
    const { approvalId } = await proposeAndApprove(world, fakes, ctl);
    ctl.spawn('t1', () => world.resume('t1', { approvalId, approved: true }));
    // The user types a new request in a new tab: the old connection is gone, events go to the new one.
    fakes.connections.close('c1');
    fakes.connections.open('c2');
    let second: Awaited<ReturnType<typeof world.propose>>;
    ctl.spawn('t2', async () => {
      second = await world.propose('t2', { alternatives: [NOTIFY] });
    });
    await ctl.join('t1');
    await ctl.join('t2');
    // The user approves the second card if it reached them.
    const shown = ctl.history.events.some(
      (e) => e.kind === 'delivery' && e.live && second !== undefined && e.approvalId === second.approvalId,
    );
    if (second && shown) {
      const { approvalId: next, action } = second;
      ctl.history.emit({ kind: 'approve', actor: 'user', approvalId: next, by: 'human', action });
      await ctl.as('user', async () => world.approve?.('user', next));
    }
  },
};
