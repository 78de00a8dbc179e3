import { NOTIFY, proposeAndApprove, TRANSFER, type Scenario } from './scenario.js';

// The same approval is resumed again after the first resume finished: a double submit, a client retry, a stale tab.
// The agent asks for a second approval after the first action ran, so a duplicated "yes" can land on the next
// confirmation, one no human answered: integrity is checked too. Where one request can carry several answers, the
// same answer twice in one request is the other way to duplicate it.
export const replay: Scenario = {
  id: 'replay',
  summary: 'The same approval is resumed again after the first resume finished (double submit, retry, stale tab).',
  properties: ['at-most-once', 'binding', 'integrity'],
  bound: 'one resume, then the same answer again (or twice in one request); a second approval follows the first',
  async program(world, fakes, ctl) {
    const { approvalId } = await proposeAndApprove(world, fakes, ctl, { alternatives: [TRANSFER], followUp: NOTIFY });
    const answer = { approvalId, approved: true };
    // Where a request can carry several answers, the duplicate may also ride in the same request.
    const ways = world.resumeMany ? ['again', 'twice-in-one'] : ['again'];
    const way = ways.length > 1 ? ways[await ctl.gate('client', 'replay.choose', { choices: ways.length })] : 'again';
    if (way === 'twice-in-one') {
      ctl.spawn('t1', () => world.resumeMany!('t1', [answer, answer]));
      return;
    }
    ctl.spawn('t1', () => world.resume('t1', answer));
    await ctl.join('t1');
    ctl.spawn('t2', () => world.resume('t2', answer));
  },
};
