// The wirings: the documented human-in-the-loop pattern with the serialized RunState as the record (run to the
// interruption, `state.approve(item)`, store `state.toString()`; a resume loads it with `RunState.fromString` and
// calls `run`), on the run() and the streaming path, with tool errors rethrown, and with the approval guard added.
import type { WiringInfo } from '@approval-conformance/core/contract';
import type { Features } from './features.js';

export interface Wiring extends WiringInfo {
  readonly path: 'run' | 'stream';
  /** Tool errors rethrown (`errorFunction: null`) instead of the default (the error's text as the tool output). */
  readonly rethrow: boolean;
  /** The app adds the approval guard (@approval-conformance/guard) to the documented pattern, and nothing else. */
  readonly guarded: boolean;
  /** Why this version cannot run it, if it cannot. */
  readonly unavailable: (features: Features) => string | undefined;
  /**
   * The guide's server-owned approval state (the framework's own fix): snapshots kept by the server under request ids,
   * each request taken once before the run resumes.
   */
  readonly serverOwned?: true;
  /** Scenarios where the wiring behaves as another one does, with the reason (it is then not applicable). */
  readonly onlyFor?: { readonly scenarios: readonly string[]; readonly reason: string };
}

const runState = (f: Features) =>
  f.runState ? undefined : `this version cannot run the RunState approval pattern (${f.problem ?? 'needsApproval, toString, fromString'})`;

const PATTERN =
  'tool({ needsApproval: true }); run to the interruption, state.approve(item), store state.toString(); ' +
  'a resume loads it with RunState.fromString and calls run';

export const WIRINGS: readonly Wiring[] = [
  { id: 'run-state', description: `${PATTERN} (run)`, path: 'run', rethrow: false, guarded: false, unavailable: runState, docsDefault: true },
  {
    id: 'run-state-stream',
    description: `${PATTERN} (run with stream: true; what streams is shown as it streams, the state saved once it completes)`,
    path: 'stream',
    rethrow: false,
    guarded: false,
    unavailable: (f) => runState(f) ?? (f.streaming ? undefined : 'this version cannot resume a restored state with stream: true'),
  },
  {
    id: 'run-state-rethrow',
    description: `${PATTERN}, the tool declared with errorFunction: null, so a tool error is rethrown from run (run)`,
    path: 'run',
    rethrow: true,
    guarded: false,
    unavailable: runState,
    onlyFor: { scenarios: ['error-after-effect'], reason: 'no tool throws here: the cell is run-state\'s' },
  },
  {
    id: 'server-owned-state',
    description:
      "the human-in-the-loop guide's server-owned approval state (examples/docs/human-in-the-loop/server.ts, #1951): the server " +
      'stores each paused run\'s state.toString() under a request id with an id per decision and shows the client only those; ' +
      'a decision takes the stored request (owner check, a complete batch, delete, no await between), restores it, applies the ' +
      'decisions by position and runs; a request taken once is refused after. memory: the example\'s Map, one process; sqlite: ' +
      'the requests in a SQLite file, each take one synchronous read and write (the guide\'s atomic shared storage; the server ' +
      'holds nothing else, so processes sharing the file behave as one) (run)',
    path: 'run',
    rethrow: false,
    guarded: false,
    serverOwned: true,
    remedy: 'https://openai.github.io/openai-agents-js/guides/human-in-the-loop/',
    unavailable: runState,
  },
  {
    id: 'guarded-run-state',
    description:
      'run-state with the approval guard (@approval-conformance/guard): the app records each card before showing it, ' +
      "records the click on the server, and the tool's execute spends the approval (bound to the call and the world) " +
      "before it calls the backend with the guard's idempotency key (run)",
    path: 'run',
    rethrow: false,
    guarded: true,
    unavailable: runState,
  },
];
