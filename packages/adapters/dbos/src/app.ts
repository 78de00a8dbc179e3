// The application, as DBOS's docs write human-in-the-loop (the checkout tutorial, typescript/widget-store in
// dbos-demo-apps; the Python agent inbox is the same shape): an agent workflow registered with
// `DBOS.registerWorkflow` makes its model call a step, publishes the card with `DBOS.setEvent`, waits for the answer
// with `DBOS.recv(TOPIC, 120)`, and acts on it in a step; it publishes what happened with another event. The endpoint
// that starts it waits for the card (`DBOS.getEvent`), and the one the human's answer reaches calls `DBOS.send` and
// waits for the outcome.
//
// DBOS keeps its registrations in module-level state, and a workflow must be registered before the first launch: so
// the workflow is registered once per loaded DBOS module, and calls into the world that runs now (one at a time in a
// process, as DBOS's module state allows).
import type { Action, ProposalRequest } from '@approval-conformance/core/contract';
import type { Module } from './lib.js';

/** The topic the answers go to, as the checkout tutorial's `PAYMENT_TOPIC`. */
export const TOPIC = 'approval';
/** How long the workflow waits for an answer, as the checkout tutorial's `DBOS.recv(PAYMENT_TOPIC, 120)`. */
export const RECV_TIMEOUT_SECONDS = 120;
/** The event the card is published under (the tutorial's `PAYMENT_ID_EVENT`): the latest card of the run. */
export const CARD_EVENT = 'card';
/** The event an approval's outcome is published under (the tutorial's `ORDER_ID_EVENT`), one per card. */
export const outcomeEvent = (approvalId: string) => `outcome:${approvalId}`;

export type Decision = 'approve' | 'deny';
export type Outcome = 'happened' | 'not-happened' | 'unknown';

export interface Card {
  readonly approvalId: string;
  readonly action: Action;
}

/** What the workflow asks of the world it runs in: the model, the tool, and the guard where the wiring has one. */
export interface AgentHost {
  /** The model's step: it decides what to propose, and the card is named. */
  decide(alternatives: ProposalRequest['alternatives']): Promise<Card>;
  /** Just before the card is published (the guard writes its record here). */
  showing(card: Card): Promise<void>;
  /** Around the workflow's wait for the answer to `card` (the world watches the statements `recv` makes). */
  waiting<T>(card: Card, recv: () => Promise<T>): Promise<T>;
  /** The tool's step: runs the approved action, and says what the user is to be told. */
  act(card: Card): Promise<Outcome>;
}

export interface AgentRequest {
  readonly alternatives: ProposalRequest['alternatives'];
  readonly followUp?: Action;
}

interface Registered {
  host: AgentHost | undefined;
  readonly agent: (request: AgentRequest) => Promise<void>;
}

const registered = new WeakMap<Module, Registered>();

/** The agent workflow of this DBOS module, registered on first use (before the first launch). */
export function agentWorkflow(sdk: Module): Registered {
  const known = registered.get(sdk);
  if (known) return known;
  const { DBOS } = sdk;
  const entry: Registered = {
    host: undefined,
    agent: undefined as never,
  };
  const host = () => {
    if (!entry.host) throw new Error('the agent workflow ran with no world: a world sets the host before DBOS launches');
    return entry.host;
  };

  /** One card: proposed by the model, shown, answered, acted on. */
  async function ask(alternatives: ProposalRequest['alternatives']): Promise<void> {
    const card = (await DBOS.runStep(() => host().decide(alternatives), { name: 'model' })) as Card;
    await host().showing(card);
    await DBOS.setEvent(CARD_EVENT, card);
    const answer = (await host().waiting(card, () => DBOS.recv(TOPIC, RECV_TIMEOUT_SECONDS))) as Decision | null;
    let outcome: Outcome = 'not-happened';
    if (answer === 'approve') {
      try {
        outcome = (await DBOS.runStep(() => host().act(card), { name: card.action.operation })) as Outcome;
      } catch {
        // As the tutorial handles a step that failed: the user is told it did not go through.
        outcome = 'not-happened';
      }
    }
    await DBOS.setEvent(outcomeEvent(card.approvalId), outcome);
  }

  async function agent(request: AgentRequest): Promise<void> {
    await ask(request.alternatives);
    // The agent goes on, and asks again for the next action.
    if (request.followUp) await ask([request.followUp]);
  }

  (entry as { agent: Registered['agent'] }).agent = DBOS.registerWorkflow(agent, { name: 'agent' });
  registered.set(sdk, entry);
  return entry;
}
