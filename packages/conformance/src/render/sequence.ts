// A counterexample as a sequence diagram, in inline SVG: one lifeline per turn (and the user, the state's holder),
// then the record, the world and the client; one arrow per event, numbered like the story, the witness in red.
// Every piece of text goes through `esc`.
import type { HistoryEvent } from '@approval-conformance/core';
import { formatAction } from '@approval-conformance/core';
import { esc } from './escape.js';

const COLUMN = 150;
const ROW = 34;
const TOP = 44;

/** The lifeline an event's arrow points at, and its label. */
function arrow(event: HistoryEvent): { to: string; label: string } {
  switch (event.kind) {
    case 'proposed':
      return { to: event.actor, label: `proposed ${event.approvalId}: ${formatAction(event.action)}` };
    case 'record-read':
      return { to: 'record', label: `read ${event.approvalId}: ${event.state} (v${event.version})` };
    case 'record-write':
      return { to: 'record', label: `write ${event.approvalId}: ${event.from} → ${event.state} (v${event.version})` };
    case 'claim':
      return { to: 'record', label: `claim ${event.approvalId}` };
    case 'delivery':
      return { to: 'client', label: `card ${event.approvalId}${event.live ? '' : ' (to a closed connection)'}` };
    case 'deny':
      return { to: 'record', label: `${event.expired ? 'expire' : 'deny'} ${event.approvalId}` };
    case 'approve':
      return { to: 'record', label: `${event.by === 'forged' ? 'forged approval' : 'approve'} ${event.approvalId}` };
    case 'tamper':
      return { to: 'record', label: `tamper ${event.approvalId}: ${event.what}` };
    case 'effect':
      return { to: 'world', label: `${formatAction(event.action)} for ${event.approvalId}: ${event.applied ? 'applied' : 'refused'}` };
    case 'disclosure':
      return { to: 'client', label: `tell: ${event.approvalId} ${event.says}` };
    case 'crash':
      return { to: event.actor, label: 'crashed' };
  }
}

/** `marker` names the arrowhead: one id per diagram, since a page holds many and ids must not repeat. */
export function sequenceSvg(history: readonly HistoryEvent[], witness: ReadonlySet<number>, marker = 'head'): string {
  const actors = [...new Set(history.map((e) => e.actor))];
  const lanes = [...actors, 'record', 'world', 'client'];
  const x = (lane: string) => 70 + lanes.indexOf(lane) * COLUMN;
  const width = 70 * 2 + (lanes.length - 1) * COLUMN + 120;
  const height = TOP + history.length * ROW + 30;
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" class="sequence" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img">`,
    `<defs><marker id="${marker}" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="context-stroke"/></marker></defs>`,
  ];
  for (const lane of lanes) {
    const shared = lane === 'record' || lane === 'world' || lane === 'client';
    parts.push(
      `<text x="${x(lane)}" y="20" text-anchor="middle" class="${shared ? 'lane shared' : 'lane'}">${esc(lane)}</text>`,
      `<line x1="${x(lane)}" y1="28" x2="${x(lane)}" y2="${height - 10}" class="lifeline"/>`,
    );
  }
  history.forEach((event, i) => {
    const y = TOP + i * ROW + 10;
    const { to, label } = arrow(event);
    const hot = witness.has(i) ? ' witness' : '';
    const [from, target] = [x(event.actor), x(to)];
    const text = `${i + 1}. ${label}`;
    if (from === target) {
      // A note on the actor's own lifeline: a proposal, a crash.
      parts.push(
        `<circle cx="${from}" cy="${y}" r="4" class="dot${hot}"/>`,
        `<text x="${from + 8}" y="${y - 6}" class="label${hot}">${esc(text)}</text>`,
      );
    } else {
      parts.push(
        `<line x1="${from}" y1="${y}" x2="${target}" y2="${y}" class="arrow${hot}" marker-end="url(#${marker})"/>`,
        `<text x="${Math.min(from, target) + 6}" y="${y - 6}" class="label${hot}">${esc(text)}</text>`,
      );
    }
  });
  parts.push('</svg>');
  return parts.join('\n');
}
