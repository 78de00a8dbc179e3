import { ScenarioDoesNotApply, TRANSFER, type Scenario } from './scenario.js';

// The human answers after the runtime stopped waiting: its own timeout for a pending confirmation (a request's
// timeout, a signed state's time to live) passed with the card unanswered, and then the click comes. An expired
// confirmation never runs, however its answer arrives, and what the user is told of it is true. The world says how
// long its runtime waits (`World.answerTimeout`); the scenario lets that much time pass on a virtual clock, where the
// runtime's own timers fire as they fall due, and then records the expiry itself: by the runtime's own word the
// confirmation has expired, whether or not its code noticed, so a runtime that runs the late answer anyway fails
// `integrity` rather than passing for want of an event.
export const lateAnswer: Scenario = {
  id: 'late-answer',
  summary: "The human approves after the runtime's own timeout for the pending confirmation has passed.",
  properties: ['integrity', 'disclosure'],
  bound: "one confirmation left unanswered past the runtime's timeout, then one approving answer",
  virtualClock: true,
  async program(world, fakes, ctl) {
    if (world.answerTimeout === undefined) throw new ScenarioDoesNotApply('the world says no timeout for a pending answer (World.answerTimeout): nothing expires, so late-answer does not apply to it');
    fakes.connections.open('c1');
    const pending = await ctl.setup(() => world.propose('t0', { alternatives: [TRANSFER] }));
    if (!pending) throw new Error('the agent did not pause on a confirmation in the setup run');
    const { approvalId, action } = pending;
    // Nobody answers in time: the runtime's timers fire as they fall due, and its wait is over.
    await ctl.elapse(world.answerTimeout + 1000);
    ctl.history.emit({ kind: 'deny', actor: 't0', approvalId, action, expired: true });
    // Then the human clicks yes on the card still on their screen, and the answer goes to the runtime.
    ctl.history.emit({ kind: 'approve', actor: 'user', approvalId, by: 'human', action });
    await ctl.as('user', async () => world.approve?.('user', approvalId));
    ctl.spawn('t1', () => world.resume('t1', { approvalId, approved: true }));
  },
};
