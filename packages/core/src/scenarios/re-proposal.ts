import { proposeAndApprove, TRANSFER, type Scenario } from './scenario.js';

/** What the model may propose instead, when the code before the pause runs again. */
export const LARGER_TRANSFER = { ...TRANSFER, params: { amount: 1000 } };

// The model decides differently when code before the pause re-runs on resume: the user approved one action, and the
// runtime must not execute another.
export const reProposal: Scenario = {
  id: 're-proposal',
  summary: 'The model decides differently when the code before the pause runs again on resume.',
  properties: ['binding'],
  bound: 'one resume; the model chooses between two proposals each time it is asked',
  async program(world, fakes, ctl) {
    const { approvalId } = await proposeAndApprove(world, fakes, ctl, { alternatives: [TRANSFER, LARGER_TRANSFER] });
    ctl.spawn('t1', () => world.resume('t1', { approvalId, approved: true }));
  },
};
