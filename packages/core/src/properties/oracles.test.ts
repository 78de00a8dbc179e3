// Each predicate against its oracle on random small histories, plus the shape of what it reports: witnesses in range
// and ascending, the first violation reported (the prefix that ends at the witness gives the same answer), and an
// explanation that names who did the deciding event.
import { fc, it } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import { historyArbitrary } from '../history/arbitrary.fixtures.js';
import type { History } from '../history/events.js';
import { checkProperty, PROPERTY_IDS, type PropertyId } from './index.js';
import { ORACLES } from './oracles.fixtures.js';

const RUNS = { numRuns: 300 };

// Violated at a point, not only at the end: a violated history stays violated on the prefix ending at its witness.
const PREFIX_CLOSED: readonly PropertyId[] = PROPERTY_IDS.filter((id) => id !== 'disclosure');

/** The index of the event after which the oracle first says violated, by replaying every prefix. */
function firstViolation(id: PropertyId, history: History): number | undefined {
  const n = history.findIndex((_, i) => !ORACLES[id](history.slice(0, i + 1)));
  return n === -1 ? undefined : n;
}

describe.each(PROPERTY_IDS)('%s', (id) => {
  it.prop([historyArbitrary], RUNS)('agrees with its oracle', (history) => {
    expect(checkProperty(id, history).holds).toBe(ORACLES[id](history));
  });

  it.prop([historyArbitrary], RUNS)('reports a witness in range and ascending, and an explanation only when violated', (history) => {
    const result = checkProperty(id, history);
    expect(result.property).toBe(id);
    if (result.holds) {
      expect(result.witness).toEqual([]);
      expect(result.explanation).toBe('');
      return;
    }
    expect(result.witness.length).toBeGreaterThan(0);
    result.witness.forEach((index, i) => {
      expect(Number.isInteger(index) && index >= 0 && index < history.length).toBe(true);
      if (i > 0) expect(index).toBeGreaterThan(result.witness[i - 1]!);
    });
    // The last witness event is the one that decided it; the explanation names its actor and approval.
    const decisive = history[Math.max(...result.witness)]!;
    expect(result.explanation).toContain(decisive.actor);
    if ('approvalId' in decisive) expect(result.explanation).toContain(decisive.approvalId);
  });

  if (PREFIX_CLOSED.includes(id)) {
    it.prop([historyArbitrary], RUNS)('reports the first violation: the prefix ending at the witness says the same', (history) => {
      const result = checkProperty(id, history);
      if (result.holds) return;
      const end = Math.max(...result.witness);
      expect(checkProperty(id, history.slice(0, end + 1))).toEqual(result);
      expect(firstViolation(id, history)).toBe(end);
    });
  } else {
    it.prop([historyArbitrary], RUNS)('stays violated on the prefix ending at the witness', (history) => {
      const result = checkProperty(id, history);
      if (result.holds) return;
      expect(checkProperty(id, history.slice(0, Math.max(...result.witness) + 1)).holds).toBe(false);
    });
  }
});

describe('the history generator', () => {
  // At least 5% each way, so the comparisons above mean something (a fixed seed: this is a measurement, not a search).
  it('produces histories where each property holds and where it fails', () => {
    const sample = fc.sample(historyArbitrary, { numRuns: 300, seed: 42 });
    for (const id of PROPERTY_IDS) {
      const failing = sample.filter((h) => !checkProperty(id, h).holds).length;
      expect.soft(failing, `${id} fails in ${failing} of 300`).toBeGreaterThanOrEqual(15);
      expect.soft(failing, `${id} fails in ${failing} of 300`).toBeLessThanOrEqual(285);
    }
  });
});
