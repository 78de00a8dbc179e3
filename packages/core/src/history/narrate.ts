// One plain sentence per event, in the manner of Jepsen's Elle: a person reads a counterexample as a story, so each
// sentence names the actor, the approval and the record version, and says what the world made of it.
import { formatAction } from './action.js';
import type { Disclosure, HistoryEvent } from './events.js';

export function narrate(event: HistoryEvent): string {
  switch (event.kind) {
    case 'proposed':
      return `${event.actor} proposed ${event.approvalId}: ${formatAction(event.action)}, in world ${event.world}`;
    case 'record-read':
      return `${event.actor} read the record: ${event.approvalId} ${event.state} (v${event.version})`;
    case 'record-write': {
      const how = event.conditional === true ? 'wrote the record by compare-and-set' : 'wrote the record';
      return `${event.actor} ${how}: ${event.approvalId} ${event.from} → ${event.state} (v${event.version})`;
    }
    case 'claim':
      return `${event.actor} claimed ${event.approvalId}: its check passed, it will act`;
    case 'delivery': {
      const fate = event.live ? '' : ' — nobody listening, dropped';
      return `${event.actor} delivered the card for ${event.approvalId} to connection ${event.connection}${fate}`;
    }
    case 'approve':
      return event.by === 'human'
        ? `${event.actor} approved ${event.approvalId}: ${formatAction(event.action)}`
        : `${event.actor} forged an approval for ${event.approvalId}: ${formatAction(event.action)}`;
    case 'deny':
      return event.expired
        ? `${event.actor} stopped waiting for the answer to ${event.approvalId}: it expired (${formatAction(event.action)})`
        : `${event.actor} denied ${event.approvalId}: ${formatAction(event.action)}`;
    case 'tamper':
      return `${event.actor} tampered with ${event.approvalId}: ${event.what}`;
    case 'effect': {
      const why = event.requiresApproval ? `for ${event.approvalId}` : '(needs no approval)';
      const fate = event.applied ? 'effect applied' : 'refused by the backend, not applied';
      const call = `${event.actor} called ${formatAction(event.action)} ${why} in world ${event.world}`;
      return `${call} — ${fate} (dispatch ${event.dispatch})`;
    }
    case 'disclosure':
      return `${event.actor} told the user ${told(event)}`;
    case 'crash':
      return `${event.actor} crashed`;
    default:
      return unreachable(event);
  }
}

function told(event: Disclosure): string {
  switch (event.says) {
    case 'happened':
      return `${event.approvalId} happened`;
    case 'not-happened':
      return `${event.approvalId} did not happen`;
    case 'unknown':
      return `nothing definite about ${event.approvalId}`;
  }
}

// A new event kind must get a sentence: this fails to compile until it does.
function unreachable(event: never): never {
  throw new Error(`no sentence for event ${JSON.stringify(event)}`);
}
