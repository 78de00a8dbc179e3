// A scenario is a bounded workload written once, for every adapter: a short program that drives a world through
// the scheduler's controller, and the properties it checks.
import type { ProposalRequest, World } from '../adapter.js';
import type { BackendOptions, CountingBackend } from '../fakes/backend.js';
import type { Connections } from '../fakes/connections.js';
import type { AdversarialModel } from '../fakes/model.js';
import type { Action, History } from '../history/events.js';
import type { PropertyId } from '../properties/ids.js';
import type { PropertyResult } from '../properties/result.js';
import type { Controller } from '../scheduler/run.js';
import type { ScenarioId } from './ids.js';

export interface Fakes {
  readonly model: AdversarialModel;
  readonly backend: CountingBackend;
  readonly connections: Connections;
}

export interface Scenario {
  readonly id: ScenarioId;
  /** What happens, in a sentence. */
  readonly summary: string;
  readonly properties: readonly PropertyId[];
  /** How many turns resume concurrently at most: the bound, in words the reports use. */
  readonly bound: string;
  readonly backend?: BackendOptions;
  /**
   * Turns the program starts together, before any release, with the same call on the same world: a run and the one
   * with two of their names swapped are the same run, up to the names (see `ExhaustiveOptions.symmetric`).
   */
  readonly symmetric?: readonly string[];
  /**
   * Runs on the approval guard's wirings only (`guarded-*`): it differs from another scenario only where the guard
   * acts (the backend ignores the idempotency keys only the guard sends). Other wirings have no cell of it.
   */
  readonly guardedOnly?: true;
  /**
   * Among a framework's default versions (the published matrix), runs only on the newest, as the guarded wirings do:
   * its cells cost more than the rest of a version's, and the older versions' double-resume cells already show what
   * each release does with concurrent answers. Naming it (`--scenario`) or a version runs it anywhere.
   */
  readonly newestOnly?: true;
  /**
   * Runs only when named (`run --scenario NAME`): a matrix with no scenario list leaves it out, until its cost in
   * every row is measured and the default matrix has room for it.
   */
  readonly optIn?: true;
  /**
   * Runs on a virtual clock whatever the adapter says (`Adapter.sleeps`): its program lets time pass (`ctl.elapse`),
   * and the subject's timers fire as they fall due, each when every turn is blocked.
   */
  readonly virtualClock?: true;
  program(world: World, fakes: Fakes, ctl: Controller): Promise<void>;
  /**
   * A gap the design admits on purpose: return its description when this violation falls inside it. The verdict is
   * then `allowed`, never `pass`.
   */
  allowedGap?(property: PropertyId, history: History, result: PropertyResult): string | undefined;
}

/**
 * What a scenario's program throws, before any turn starts, when the world lacks what the scenario needs (a restart, a
 * timeout for an answer): the cell is not-applicable with this reason, never an error. An adapter says so in
 * `applicability` where it knows the scenario; this covers one written before the scenario existed.
 */
export class ScenarioDoesNotApply extends Error {
  override readonly name = 'ScenarioDoesNotApply';
}

/** The action every scenario approves unless it says otherwise. */
export const TRANSFER: Action = { operation: 'transfer', targets: ['acct-1'], params: { amount: 100 } };

/** A second action that needs its own approval, for flows that ask twice. */
export const NOTIFY: Action = { operation: 'notify', targets: ['customer-1'], params: { template: 'refund-sent' } };

/** The setup most scenarios share: open the user's connection, run to the pause, and have the human approve it. */
export async function proposeAndApprove(
  world: World,
  fakes: Fakes,
  ctl: Controller,
  request: ProposalRequest = { alternatives: [TRANSFER] },
) {
  fakes.connections.open('c1');
  const pending = await ctl.setup(async () => {
    const paused = await world.propose('t0', request);
    // The click reaches the server too, where the world records approvals there (World.approve).
    if (paused) await ctl.as('user', async () => world.approve?.('user', paused.approvalId));
    return paused;
  });
  if (!pending) throw new Error('the agent did not pause on a confirmation in the setup run');
  ctl.history.emit({
    kind: 'approve',
    actor: 'user',
    approvalId: pending.approvalId,
    by: 'human',
    action: pending.action,
  });
  return pending;
}
