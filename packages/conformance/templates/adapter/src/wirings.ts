// The wirings: each documented way an app builds its confirmation step on the framework, and the approval guard's.
// The first is the pattern the framework's docs show (`docsDefault`): the suite judges what an app that follows the
// docs gets. For a real framework, list the patterns its docs show (an interrupt in a node, a tool's approval flag,
// ...), each with what the adapter does differently for it, and keep a `guarded-` one.
import type { WiringInfo } from '@approval-conformance/core/contract';

export interface Wiring extends WiringInfo {
  /** The app puts the approval guard (@approval-conformance/guard) between the resume and the tool. */
  readonly guarded: boolean;
}

export const WIRINGS: readonly Wiring[] = [
  {
    id: 'resume',
    description: "the docs' pattern: agent.resume(approvalId) reads the pending approval, checks it is pending, runs the tool, then marks it done",
    docsDefault: true,
    guarded: false,
  },
  {
    id: 'guarded-resume',
    description: 'the same, with the approval guard (@approval-conformance/guard) spending the approval before the tool runs',
    guarded: true,
  },
];

export function wiring(id: string): Wiring {
  const found = WIRINGS.find((w) => w.id === id);
  if (!found) throw new Error(`unknown wiring '${id}'; this adapter has ${WIRINGS.map((w) => w.id).join(', ')}`);
  return found;
}
