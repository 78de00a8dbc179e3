// The reference runtime's wirings: the 12 combinations of the three switches, named as the model table names them.
import { allSwitches, switchesName, type Switches, type WiringInfo } from '@approval-conformance/core/contract';

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

/**
 * The guarded wirings: a switch setting the essay marks unsafe (the spend recorded after the effect, checked on the
 * restored snapshot, turns not serialised), with the approval guard added and nothing else changed.
 */
export const GUARDED: ReadonlyMap<string, Switches> = new Map(
  ['after-snapshot'].map((name) => [`guarded-${name}`, WIRINGS.get(name)!] as const),
);

export const GUARDED_INFO: readonly WiringInfo[] = [...GUARDED.keys()].map((id) => ({
  id,
  description: `${WIRING_INFO.find((w) => `guarded-${w.id}` === id)!.description}; with the approval guard (@approval-conformance/guard) between the resume and the tool`,
}));
