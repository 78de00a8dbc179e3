// The wirings: ADK's tool confirmation as its docs show it (a tool that needs confirmation pauses the run on an
// injected `adk_request_confirmation` call; the user's function response `{ confirmed }` resumes it), with the tool
// declared `requireConfirmation: true` (2.0), or asking by itself with `toolContext.requestConfirmation` (every
// version), and the first with the approval guard added.
import type { WiringInfo } from '@approval-conformance/core/contract';
import type { Features } from './features.js';
import type { Confirmation } from './tools.js';

export interface Wiring extends WiringInfo {
  readonly confirmation: Confirmation;
  /** The app adds the approval guard (@approval-conformance/guard) to the documented pattern, and nothing else. */
  readonly guarded: boolean;
  /** Why this version cannot run it, if it cannot. */
  readonly unavailable: (features: Features) => string | undefined;
}

const ANSWER = "the app shows the adk_request_confirmation call's original call as the card, and answers with a new runAsync whose message is the user's functionResponse { confirmed } to it";

const declared = (f: Features) => (f.requireConfirmation ? undefined : 'this version has no FunctionTool requireConfirmation (2.0.0 adds it)');

export const WIRINGS: readonly Wiring[] = [
  {
    id: 'require-confirmation',
    description: `new FunctionTool({ ..., requireConfirmation: true }) under a Runner over the session service; ${ANSWER}`,
    confirmation: 'require-confirmation',
    guarded: false,
    unavailable: declared,
    docsDefault: true,
  },
  {
    id: 'request-confirmation',
    description: `the tool asks by itself: toolContext.requestConfirmation({ hint }) when no toolConfirmation came, refuses when it is not confirmed; ${ANSWER}`,
    confirmation: 'request-confirmation',
    guarded: false,
    unavailable: (f) => f.requestedResumeFails,
    // Before 2.0 the only way.
    docsDefault: true,
  },
  {
    id: 'guarded-require-confirmation',
    description:
      'require-confirmation with the approval guard (@approval-conformance/guard): the app records each card before showing it, ' +
      "records the click on the server, and the tool's execute spends the approval (bound to the call and the world) before it " +
      "calls the backend with the guard's idempotency key",
    confirmation: 'require-confirmation',
    guarded: true,
    unavailable: declared,
  },
];
