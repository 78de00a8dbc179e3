import { NOTIFY, TRANSFER, type Scenario } from './scenario.js';

// Two approvals pending at once, as when the model asks for two tools in one step: the user approves the transfer
// and denies the notice. Each answer must reach its own call, and only its own: the field's trackers have approvals
// resumed into the wrong suspended run (mastra-ai/mastra#20322), a second approval that sends the first tool's output
// again (openai/openai-agents-js#1435), and interrupts answered in no fixed order (langchain-ai/langgraph#6108).
// The answers come in one request (in either order) where a request can carry several, or in one request each,
// concurrently.

/** How the answers are sent, in the order the scenario offers them at its `answers.send` gate (`user:1`). */
export const TWO_APPROVALS_WAYS = ['two-requests', 'one-request', 'one-request-denial-first'] as const;

export const twoApprovals: Scenario = {
  id: 'two-approvals',
  summary: 'Two approvals pending at once: the user approves the transfer and denies the notice, in one request or two.',
  properties: ['at-most-once', 'binding', 'integrity', 'disclosure'],
  bound: 'two pending approvals; both answers in one request (either order) or one request each, concurrently',
  // 86 cells of it on the newest release of six frameworks ran in 33 s; the LangGraph server's default wirings take
  // about a minute more. On every default version it would push the matrix past its 10 minutes.
  newestOnly: true,
  async program(world, fakes, ctl) {
    if (!world.proposeMany) throw new Error('the world cannot hold two approvals at once (World.proposeMany)');
    fakes.connections.open('c1');
    const pending = await ctl.setup(async () => {
      const both = await world.proposeMany!('t0', [{ alternatives: [TRANSFER] }, { alternatives: [NOTIFY] }]);
      // The click on the first card reaches the server, where the world records approvals there (World.approve).
      if (both?.length === 2) await ctl.as('user', async () => world.approve?.('user', both[0]!.approvalId));
      return both;
    });
    if (pending?.length !== 2) throw new Error('the agent did not pause on two confirmations in the setup run');
    const [yes, no] = pending as [typeof pending[0], typeof pending[0]];
    ctl.history.emit({ kind: 'approve', actor: 'user', approvalId: yes.approvalId, by: 'human', action: yes.action });
    ctl.history.emit({ kind: 'deny', actor: 'user', approvalId: no.approvalId, action: no.action });
    const approve = { approvalId: yes.approvalId, approved: true };
    const deny = { approvalId: no.approvalId, approved: false };
    const ways = world.resumeMany ? TWO_APPROVALS_WAYS : (['two-requests'] as const);
    const way = ways.length > 1 ? ways[await ctl.gate('user', 'answers.send', { choices: ways.length })] : ways[0];
    if (way === 'two-requests') {
      ctl.spawn('t1', () => world.resume('t1', approve));
      ctl.spawn('t2', () => world.resume('t2', deny));
    } else {
      ctl.spawn('t1', () => world.resumeMany!('t1', way === 'one-request' ? [approve, deny] : [deny, approve]));
    }
  },
};
