import { proposeAndApprove, type Scenario } from './scenario.js';

// The tool applies its effect, then throws. Whatever the user is told must be true, and when they retry because they
// were told it failed, the action must not run again.
export const errorAfterEffect: Scenario = {
  id: 'error-after-effect',
  summary: 'The tool applies its effect, then throws; the user retries.',
  properties: ['disclosure', 'at-most-once'],
  bound: 'one resume whose tool call fails after applying, then one retry',
  backend: { errorAfterApplyOnCalls: [1] },
  async program(world, fakes, ctl) {
    const { approvalId } = await proposeAndApprove(world, fakes, ctl);
    ctl.spawn('t1', () => world.resume('t1', { approvalId, approved: true }));
    await ctl.join('t1');
    ctl.spawn('t2', () => world.resume('t2', { approvalId, approved: true }));
  },
};
