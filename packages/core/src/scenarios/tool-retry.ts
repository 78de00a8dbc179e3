import { proposeAndApprove, type Scenario } from './scenario.js';

// The transport times out after the backend applied the effect, and sends the call again. Without an idempotency
// key derived from the approval, the world applies it twice.
export const toolRetry: Scenario = {
  id: 'tool-retry',
  summary: 'The transport times out after the backend applied the effect, and retries.',
  properties: ['exactly-once-delivery'],
  bound: 'one resume; the first tool call times out after applying and is sent once more',
  backend: { timeoutAfterApplyOnCalls: [1], transportRetries: 1 },
  async program(world, fakes, ctl) {
    const { approvalId } = await proposeAndApprove(world, fakes, ctl);
    ctl.spawn('t1', () => world.resume('t1', { approvalId, approved: true }));
  },
};
