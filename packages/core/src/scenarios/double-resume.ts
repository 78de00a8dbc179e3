import { proposeAndApprove, type Scenario } from './scenario.js';

// A click and a typed "go ahead" a second apart: two turns resume the same approval concurrently.
export const doubleResume: Scenario = {
  id: 'double-resume',
  summary: 'Two turns resume the same approval concurrently (a click and a typed "go ahead").',
  properties: ['at-most-once', 'no-resurrection', 'fresh-view'],
  bound: 'two concurrent resumes',
  symmetric: ['t1', 't2'],
  async program(world, fakes, ctl) {
    const { approvalId } = await proposeAndApprove(world, fakes, ctl);
    ctl.spawn('t1', () => world.resume('t1', { approvalId, approved: true }));
    ctl.spawn('t2', () => world.resume('t2', { approvalId, approved: true }));
  },
};
