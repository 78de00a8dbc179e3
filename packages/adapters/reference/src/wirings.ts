// The reference runtime's wirings: the 12 combinations of the three switches, named as the model table names them.
import { allSwitches, switchesName, type Switches, type WiringInfo } from '@approval-conformance/core';

const DESCRIBE = {
  after: 'records the spend after the effect',
  before: 'records the spend before the effect, as a separate write',
  cas: 'spends by compare-and-set before the effect',
} as const;

export const WIRINGS: ReadonlyMap<string, Switches> = new Map(allSwitches().map((s) => [switchesName(s), s]));

export const WIRING_INFO: readonly WiringInfo[] = [...WIRINGS].map(([id, s]) => ({
  id,
  description:
    `${DESCRIBE[s.spendMode]}; the check ${s.freshView ? 're-reads the record' : 'uses the restored snapshot'}` +
    (s.serialize ? '; one turn at a time between claim and effect' : ''),
}));
