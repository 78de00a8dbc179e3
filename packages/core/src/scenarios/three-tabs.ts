import { proposeAndApprove, type Scenario } from './scenario.js';

// Three tabs answer one approval at once: the same race as double-resume, with a third turn. The design model checks
// any number of turns (`model --turns 3`); the reference runtime's cells are calibrated against it. Its spaces grow
// fast where turns are serialised (tens of thousands of schedules), so it runs only when asked by name.
export const threeTabs: Scenario = {
  id: 'three-tabs',
  summary: 'Three turns resume the same approval concurrently (three tabs open on one card).',
  properties: ['at-most-once', 'no-resurrection', 'fresh-view'],
  bound: 'three concurrent resumes',
  symmetric: ['t1', 't2', 't3'],
  optIn: true,
  async program(world, fakes, ctl) {
    const { approvalId } = await proposeAndApprove(world, fakes, ctl);
    for (const turn of ['t1', 't2', 't3']) ctl.spawn(turn, () => world.resume(turn, { approvalId, approved: true }));
  },
};
