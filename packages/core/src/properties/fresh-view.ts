// fresh-view: a turn that acts on an approval read a record version no older than the latest spend before it acted.
// A turn's view is the version of its latest read of the approval, raised by its latest compare-and-set (which reads
// as it writes). A blind write refreshes nothing: writing "spent" over a record you have not re-read is the lost
// update. A turn's own spend is no news to it, so only another turn's spend can make a view stale.
import type { History, RecordRead, RecordWrite } from '../history/events.js';
import { holds, violated, type PropertyResult } from './result.js';
import type { At } from './scan.js';

export function freshView(history: History): PropertyResult {
  const key = (actor: string, approvalId: string) => JSON.stringify([actor, approvalId]);
  const lastRead = new Map<string, At<RecordRead>>();
  const lastCas = new Map<string, At<RecordWrite>>();
  const lastSpend = new Map<string, At<RecordWrite>>();
  for (const [index, event] of history.entries()) {
    if (event.kind === 'record-read') {
      lastRead.set(key(event.actor, event.approvalId), { index, event });
    } else if (event.kind === 'record-write') {
      if (event.conditional === true) lastCas.set(key(event.actor, event.approvalId), { index, event });
      if (event.from === 'unspent' && event.state === 'spent') lastSpend.set(event.approvalId, { index, event });
    } else if (event.kind === 'effect') {
      // Any effect counts, applied or refused: the runtime acted on its view either way.
      const spent = lastSpend.get(event.approvalId);
      if (spent === undefined || spent.event.actor === event.actor) continue;
      const k = key(event.actor, event.approvalId);
      const view = newest(lastRead.get(k), lastCas.get(k));
      if (view !== undefined && view.event.version >= spent.event.version) continue;
      const from =
        view === undefined ? 'without having read its record' : `from a view of v${view.event.version}`;
      return violated(
        'fresh-view',
        [...(view === undefined ? [] : [view.index]), spent.index, index],
        `${event.actor} acted on ${event.approvalId} ${from}, but ${spent.event.actor} had spent it at ` +
          `v${spent.event.version}.`,
      );
    }
  }
  return holds('fresh-view');
}

// The event that sets the view: the higher version wins; on a tie, the read.
function newest(
  read: At<RecordRead> | undefined,
  cas: At<RecordWrite> | undefined,
): At<RecordRead> | At<RecordWrite> | undefined {
  if (read === undefined) return cas;
  if (cas === undefined) return read;
  return cas.event.version > read.event.version ? cas : read;
}
