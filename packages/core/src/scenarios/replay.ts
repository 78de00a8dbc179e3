import { NOTIFY, proposeAndApprove, TRANSFER, type Scenario } from './scenario.js';

// The same approval is resumed again after the first resume finished: a double submit, a client retry, a stale tab.
// The agent asks for a second approval after the first action ran, so a duplicated "yes" can land on the next
// confirmation, one no human answered: integrity is checked too.
export const replay: Scenario = {
  id: 'replay',
  summary: 'The same approval is resumed again after the first resume finished (double submit, retry, stale tab).',
  properties: ['at-most-once', 'binding', 'integrity'],
  bound: 'one resume, then the same answer again; a second approval follows the first',
  async program(world, fakes, ctl) {
    const { approvalId } = await proposeAndApprove(world, fakes, ctl, { alternatives: [TRANSFER], followUp: NOTIFY });
    ctl.spawn('t1', () => world.resume('t1', { approvalId, approved: true }));
    await ctl.join('t1');
    ctl.spawn('t2', () => world.resume('t2', { approvalId, approved: true }));
  },
};
