import { proposeAndApprove, type Scenario } from './scenario.js';

// The same approval is resumed again after the first resume finished: a double submit, a client retry, a stale tab.
export const replay: Scenario = {
  id: 'replay',
  summary: 'The same approval is resumed again after the first resume finished (double submit, retry, stale tab).',
  properties: ['at-most-once', 'binding'],
  bound: 'one resume, then the same answer again',
  async program(world, fakes, ctl) {
    const { approvalId } = await proposeAndApprove(world, fakes, ctl);
    ctl.spawn('t1', () => world.resume('t1', { approvalId, approved: true }));
    await ctl.join('t1');
    ctl.spawn('t2', () => world.resume('t2', { approvalId, approved: true }));
  },
};
