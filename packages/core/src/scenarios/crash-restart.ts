import { proposeAndApprove, type Scenario } from './scenario.js';

// The process dies at a gate of the resuming turn (at each gate in turn, across the schedules), restarts over what
// the store made durable, and the client retries. The effect must still run at most once, the record must never
// resurrect, and an effect that happened before the crash must still be disclosed.
export const crashRestart: Scenario = {
  id: 'crash-restart',
  summary: 'The process dies at a gate of the resuming turn; it restarts and the client retries.',
  properties: ['at-most-once', 'no-resurrection', 'disclosure'],
  bound: 'one resume, the process dying at any one of its gates, then one retry after restart',
  async program(world, fakes, ctl) {
    if (!world.restart) throw new Error('this world cannot restart: crash-restart does not apply to it');
    const { approvalId } = await proposeAndApprove(world, fakes, ctl);
    ctl.spawn('t1', () => world.resume('t1', { approvalId, approved: true }), { crashable: true });
    if ((await ctl.join('t1')).status !== 'crashed') return;
    await world.restart();
    ctl.spawn('t2', () => world.resume('t2', { approvalId, approved: true }));
  },
};
