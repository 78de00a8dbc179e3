// The eight properties of the contract (CONTRACT.md in the design folder). Ids are stable: the CLI,
// results files and reports use them.

export const PROPERTY_IDS = [
  'at-most-once',
  'no-resurrection',
  'fresh-view',
  'binding',
  'shown-is-recorded',
  'disclosure',
  'exactly-once-delivery',
  'integrity',
] as const;

export type PropertyId = (typeof PROPERTY_IDS)[number];

export interface PropertyInfo {
  readonly id: PropertyId;
  /** The promise, in one sentence. */
  readonly promise: string;
  /** The failure's name older than this field. */
  readonly oldName: string;
  /** The design-review checklist line that rules the failure out. */
  readonly checklist: string;
  /**
   * Where a violation shows: `at-event`, at the event that breaks the promise (the rest of the history cannot undo
   * it, so a schedule cut short after it already shows it), or `at-end`, only once the run is over (disclosure: the
   * user may still be told).
   */
  readonly judged: 'at-event' | 'at-end';
  /**
   * Whether it compares events with each write of the record as it happened (no-resurrection: was the record spent
   * when the effect ran; fresh-view: which spend came first), rather than with the record's last state alone, or not
   * at all. The explorer may run writes to different parts of the record in one order only where no property checked
   * looks at their order.
   */
  readonly recordHistory: boolean;
}

export const PROPERTY_INFO: Readonly<Record<PropertyId, PropertyInfo>> = {
  'at-most-once': {
    id: 'at-most-once',
    promise: 'For one approval, the approved effect reaches the world at most once.',
    oldName: 'lost update / double spend',
    checklist: 'the spend is a compare-and-set, or restores are serialised',
    judged: 'at-event',
    recordHistory: false,
  },
  'no-resurrection': {
    id: 'no-resurrection',
    promise: 'Once the effect has run, the durable record says the approval is spent, at every later point.',
    oldName: 'resurrected approval',
    checklist: 'the spend is durable before the tool call',
    judged: 'at-event',
    recordHistory: true,
  },
  'fresh-view': {
    id: 'fresh-view',
    promise:
      'A turn that acts on an approval read a record version no older than the latest spend before it acted.',
    oldName: 'stale read',
    checklist: 'every restore reads a view at least as new as the last spend',
    judged: 'at-event',
    recordHistory: true,
  },
  binding: {
    id: 'binding',
    promise:
      'The executed action equals the approved one: operation, targets, parameters, and the world it was approved against (else it is refused).',
    oldName: 'time-of-check to time-of-use',
    checklist: 'executed action equals approved action',
    judged: 'at-event',
    recordHistory: false,
  },
  'shown-is-recorded': {
    id: 'shown-is-recorded',
    promise:
      'Every confirmation a user can act on was delivered to a live connection and is the one the record holds; nothing the system believes shown was dropped.',
    oldName: 'dropped message / lost write',
    checklist: 'what the user was shown is persisted before they can act on it',
    judged: 'at-event',
    recordHistory: false,
  },
  disclosure: {
    id: 'disclosure',
    promise: 'Every effect that happened is disclosed to the user, on the error path too.',
    oldName: 'phantom failure / unacknowledged write',
    checklist: 'an effect that happened is always disclosed',
    judged: 'at-end',
    recordHistory: false,
  },
  'exactly-once-delivery': {
    id: 'exactly-once-delivery',
    promise:
      'With an at-least-once tool transport (retry after a timeout), the world applies the effect once.',
    oldName: 'at-least-once delivery with a non-idempotent effect',
    checklist: 'idempotency key derived from the approval',
    judged: 'at-event',
    recordHistory: false,
  },
  integrity: {
    id: 'integrity',
    promise:
      'An approval no human gave, or one whose action was altered by whoever holds the state, is not executed.',
    oldName: 'forged capability / confused deputy',
    checklist: 'the approval is bound to its action and cannot be forged',
    judged: 'at-event',
    recordHistory: false,
  },
};

export function isPropertyId(value: string): value is PropertyId {
  return (PROPERTY_IDS as readonly string[]).includes(value);
}
