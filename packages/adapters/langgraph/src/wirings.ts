// The wirings: each a documented way to build a confirmation step with interrupt().
import type { WiringInfo } from '@approval-conformance/core/contract';
import type { Features } from './features.js';

export interface Wiring extends WiringInfo {
  readonly effectIn: 'interrupt-node' | 'next-node';
  readonly resumeBy: 'value' | 'id' | 'id-strict';
  /** With the approval guard (@approval-conformance/guard) between the resume and the tool, and nothing else changed. */
  readonly guarded?: true;
  /** Why this version cannot run it, if it cannot. */
  readonly unavailable: (features: Features) => string | undefined;
}

/** The documented wirings, as the docs write them. */
export const UNGUARDED: readonly Wiring[] = [
  {
    id: 'interrupt-node',
    description: 'the node calls interrupt({action}) and then performs the effect',
    // The human-in-the-loop docs' first example: interrupt() in the node, then act on the answer.
    docsDefault: true,
    effectIn: 'interrupt-node',
    resumeBy: 'value',
    unavailable: () => undefined,
  },
  {
    id: 'separate-node',
    description: 'the effect lives in the next node, as the docs recommend',
    effectIn: 'next-node',
    resumeBy: 'value',
    unavailable: () => undefined,
  },
  {
    id: 'resume-by-id',
    description: 'the effect in the next node; resumes name the interrupt id',
    effectIn: 'next-node',
    resumeBy: 'id',
    unavailable: (f) => (f.interruptIds ? undefined : 'interrupts have no id before 0.4, so a resume cannot name one'),
  },
  {
    id: 'strict-resume',
    description: 'resume by id with the strict-resume option, which rejects unknown or consumed ids',
    effectIn: 'next-node',
    resumeBy: 'id-strict',
    unavailable: (f) =>
      !f.interruptIds
        ? 'interrupts have no id before 0.4'
        : f.strictResume
          ? undefined
          : 'this version has no strict-resume option (1.7+)',
  },
];

/** The docs' two patterns with the approval guard added: a record before the card, a spend before the effect. */
export const GUARDED_WIRINGS: readonly Wiring[] = ['interrupt-node', 'separate-node'].map((id) => {
  const { docsDefault: _, ...wiring } = UNGUARDED.find((w) => w.id === id)!;
  return {
    ...wiring,
    id: `guarded-${id}`,
    description: `${wiring.description}; with the approval guard (@approval-conformance/guard) between the resume and the tool`,
    guarded: true,
  };
});

export const WIRINGS: readonly Wiring[] = [...UNGUARDED, ...GUARDED_WIRINGS];
