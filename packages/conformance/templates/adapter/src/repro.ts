// How a failing cell becomes a standalone reproduction (`approval-conformance repro`): the app as the framework's docs
// write it, in plain JavaScript, for a script that imports the framework alone. The suite writes the rest of the
// script around it: the scenario's world before it (`backend.transfer(amount)` counts what the tool applied, and
// `resumeRead(value)` is where two resumes meet, so wrap the framework's read of the paused run with it), and the
// scenario's steps after it, which call `ask()`, `click()`, `forge()` and `resume()`. The app pushes what it tells the
// user onto `told`. A reproduction is for the framework's maintainers: it needs nothing of the suite.
//
// Here the "framework" is the toy in this package (its ./runtime entry): a real framework's reproduction imports the
// framework's own package, and `dependencies` pins its version.
import type { FrameworkRepro } from '@approval-conformance/core/kit';

const PACKAGE = 'approval-conformance-adapter-__NAME__';

const IMPORTS = `import { Agent, MemoryApprovalStore } from '${PACKAGE}/runtime';`;

/** The docs' pattern: the agent pauses on a tool that needs approval, and `agent.resume` continues it. */
const RESUME = `// The framework's store of pending approvals. A resume's read of one goes through the scenario's resumeRead.
const store = new MemoryApprovalStore();
const get = store.get.bind(store);
let resuming = false;
store.get = async (id, context) => (resuming ? resumeRead(await get(id, context)) : get(id, context));

// A scripted model: it asks for transfer(100), a tool that needs the user's approval.
const agent = new Agent({
  model: async () => ({ id: 'call-1', tool: 'transfer', input: { amount: 100 } }),
  tools: {
    transfer: {
      needsApproval: true,
      async run({ amount }) {
        await backend.transfer(amount);
        return 'transfer done';
      },
    },
  },
  store,
});

let card;
async function ask() {
  const result = await agent.run('Send 100 from acct-1.');
  if (result.status === 'paused') card = result.approval; // the card the user sees
}
let answer;
const click = async () => (answer = { approved: true }); // the user's Approve, sent with the resume
const forge = click; // the approval is a request parameter: any client can send it
async function resume() {
  resuming = true;
  const result = await agent.resume(card.id, answer);
  if (result.status === 'done') told.push('the transfer happened');
}`;

export const repro: FrameworkRepro = {
  framework: '__NAME__',
  packageName: PACKAGE,
  dependencies: (version) => ({ [PACKAGE]: version }),
  app: (wiring) => (wiring === 'resume' ? { imports: IMPORTS, app: RESUME } : undefined),
};
