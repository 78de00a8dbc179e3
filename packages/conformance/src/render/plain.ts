// The reports' words for deciders: what each property protects against, what its failure costs in words a team
// choosing a framework knows, and a one-line story per scenario and property. The counterexample's own explanation
// ("a1's effect reached the world twice: t1 ... then t2 ...") stays on the story page, beside its diagram.
import type { PropertyId } from '@approval-conformance/core';

export interface PropertyWords {
  /** What the property protects against, in one sentence. */
  readonly protects: string;
  /** What a failure costs, as a decider would say it. */
  readonly harm: string;
}

export const PROPERTY_WORDS: Readonly<Record<PropertyId, PropertyWords>> = {
  'at-most-once': {
    protects: 'One approval moves the money once, however many clicks, tabs, retries or restarts reach it.',
    harm: 'a duplicated payment',
  },
  'no-resurrection': {
    protects: 'Once the action ran, the record says the approval is used up, so nothing can run it again.',
    harm: 'a used approval that can run again',
  },
  'fresh-view': {
    protects: 'A turn acts only on an approval state at least as new as the last time it was used.',
    harm: 'an action taken on an out-of-date view',
  },
  binding: {
    protects: 'What runs is exactly what the user approved: the same operation, targets, amounts and world.',
    harm: 'an action other than the one approved',
  },
  'shown-is-recorded': {
    protects: 'The card a user approves is one the server delivered and still holds.',
    harm: 'a user told the wrong thing',
  },
  disclosure: {
    protects: 'The user is told about every action that happened, on the error path too.',
    harm: 'a user told the wrong thing',
  },
  'exactly-once-delivery': {
    protects: 'A network retry of the tool call does not apply the action a second time.',
    harm: 'a duplicated payment',
  },
  integrity: {
    protects: 'Whoever holds the state (a client, a stored snapshot) cannot forge an approval or alter an approved one.',
    harm: 'an action other than the one approved',
  },
};

/** The harms, most severe first, with the properties behind each: the severity legend. */
export const HARMS: readonly { readonly harm: string; readonly properties: readonly PropertyId[] }[] = [
  { harm: 'a duplicated payment', properties: ['at-most-once', 'exactly-once-delivery'] },
  { harm: 'an action other than the one approved', properties: ['binding', 'integrity'] },
  { harm: 'a used approval that can run again', properties: ['no-resurrection', 'fresh-view'] },
  { harm: 'a user told the wrong thing', properties: ['disclosure', 'shown-is-recorded'] },
];

/** One line per scenario and property, in plain words, for a failing cell. */
const STORIES: Readonly<Record<string, string>> = {
  'double-resume/at-most-once': 'two resumes of one approval (a click and a typed "go ahead") both ran the transfer',
  'double-resume/no-resurrection': 'the transfer ran while the record still offered the approval',
  'double-resume/fresh-view': 'a second resume acted on the approval from a view older than its use',
  'replay/at-most-once': 'the same approval sent again ran the transfer again',
  'replay/binding': 'a replayed approval ran a different action',
  'replay/integrity': 'an old approval approved a call no one had seen',
  're-proposal/binding': 'the model chose again on resume, and the new choice ran on the old approval',
  'world-drift/binding': 'the transfer ran although the account changed after the user approved it',
  'overlapping-turns/shown-is-recorded': 'the user approved a card the server no longer holds',
  'error-after-effect/disclosure': 'the transfer happened, then the tool threw, and the user was told it failed',
  'error-after-effect/at-most-once': 'the transfer happened, then the tool threw, and the retry ran it again',
  'tool-retry/exactly-once-delivery': 'a network retry of the tool call applied the transfer twice',
  'crash-restart/at-most-once': 'after a crash, the retry ran the transfer a second time',
  'crash-restart/no-resurrection': 'the transfer ran while the record still offered the approval, so a crash left it usable',
  'crash-restart/disclosure': 'after a crash, the transfer had happened but the user was never told',
  'tamper/integrity': 'an edit of the stored approval (or a forged one) ran an action no one approved',
};

/** The plain story of a failing cell: its scenario's, or the property's harm where none is written. */
export const plainStory = (scenario: string, property: PropertyId) =>
  STORIES[`${scenario}/${property}`] ?? `${scenario}: ${PROPERTY_WORDS[property].harm}`;
