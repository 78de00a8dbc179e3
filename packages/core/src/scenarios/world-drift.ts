import { proposeAndApprove, type Scenario } from './scenario.js';

// The world changes between showing the card and the approval (a target is deleted or edited): the action must be
// refused, not run against a world the user never saw.
export const worldDrift: Scenario = {
  id: 'world-drift',
  summary: 'The world changes between showing the card and the approval (a target is deleted or changed).',
  properties: ['binding'],
  bound: 'one change to the world, then one resume',
  async program(world, fakes, ctl) {
    const { approvalId } = await proposeAndApprove(world, fakes, ctl);
    fakes.backend.drift();
    ctl.spawn('t1', () => world.resume('t1', { approvalId, approved: true }));
  },
};
