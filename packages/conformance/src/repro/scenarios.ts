// What each scenario does in a standalone reproduction, in plain JavaScript that knows no framework: the world the
// tool acts on (a backend that counts what it applied, a store of paused runs), and the steps that drive the app. The
// framework's part (framework modules) defines the app between the two: `ask()` runs the user's request to the
// approval card, `click()` is the user's Approve, `resume()` is a request that resumes, `forge()` approves with no
// human, and the app pushes what it tells the user onto `told`. Each step is a plain `await`: the only interleaving
// control is the meeting in `resumeRead` below, where the scenario needs two requests to read before either goes on.
import type { ScenarioId } from '@approval-conformance/core';

export interface ScenarioRepro {
  /** The scenario's world: the backend, and `resumeRead` (with the meeting a race needs). */
  readonly world: string;
  /** The steps, ending with `report(bug, text)`. */
  readonly steps: string;
  /** The property whose failure the script shows (the scenario's others fail with it, or are not shown). */
  readonly property: string;
  /** Other properties whose failure the script shows on its own (crash-restart: a second transfer, or none told). */
  readonly alsoShows?: readonly string[];
  /** Properties that fail whenever the key one does, in what the script shows (two resumes both ran the transfer). */
  readonly withKey?: readonly string[];
  /** The script differs by store: what a restart keeps (crash-restart). */
  readonly byStore?: true;
  /** What the reproduction shows, in one sentence for its README. */
  readonly shows: string;
  /** What a runtime that keeps the promise prints, and what the failing one prints. */
  readonly expected: string;
  /** What the failing runtime prints; by the cell's store where the script differs by store. */
  readonly actual: string | ((store: string) => string);
}

const PLAIN_READ = `// A resume's read of the paused run, as the app's store or the framework's checkpointer returns it.
const resumeRead = async (value) => value;`;

/** The app names this text to ask for the second request of overlapping-turns (its ask2, holds and resumeSave). */
export const OVERLAP_MARK = 'async function ask2(';

/**
 * The app names this text to say its agent goes on to ask for its next action (a notice, `backend.notify()`) once the
 * approved transfer ran: replay's steps need that card, for the answer sent again to land on.
 */
export const FOLLOW_UP_MARK = 'async function askNext(';

const COUNTING = `// The payment backend: every transfer it applied.
const applied = [];
const backend = {
  async transfer(amount) {
    applied.push(amount);
  },
};`;

const REPORT = `function report(bug, text) {
  console.log(text);
  console.log(bug ? 'BUG: the approval was not kept.' : 'OK: the approval was kept.');
  process.exitCode = bug ? 1 : 0;
}`;

const SCENARIOS: Partial<Record<ScenarioId, ScenarioRepro>> = {
  'overlapping-turns': {
    property: 'shown-is-recorded',
    world: `// The payment backend: every transfer it applied.
const applied = [];
const backend = {
  async transfer(amount) {
    applied.push(amount);
  },
};

${PLAIN_READ}
// The resume and a new request overlap on one chat. The resume saves what it ran only once the new request has saved
// its own card (resumeSave waits for secondSaved): the order in which the bug shows.
let secondSaved;
const second = new Promise((resolve) => (secondSaved = resolve));
const resumeSave = () => second;`,
    steps: `await ask(); // the card: transfer 100 from acct-1
await click(); // the user approves it
// The approved transfer resumes while the user, in a new tab, asks for something else: a second card, for notify.
await Promise.all([resume(), ask2()]);
// The user sees the notify card and approves it: does the server's record still hold it?
const held = await holds('notify');
report(!held, \`The user was shown a card for notify. The server's record \${held ? 'holds it' : 'no longer holds it: the resume overwrote it, or answered it'}.\`);`,
    shows: "a resume and a new request overlap on one chat: the resume saves over the new request's card, or answers it, so the user approves a card the server no longer holds",
    expected: "The server's record holds it.",
    actual: "The server's record no longer holds it: the resume overwrote it, or answered it.",
  },
  'crash-restart': {
    property: 'disclosure',
    alsoShows: ['at-most-once'],
    byStore: true,
    world: `// The payment backend. The process dies right after the backend applied the first transfer: that request never
// returns, and nothing after it runs in that process (what the app or the framework would have saved next is never
// saved). The app then starts again (restart) over what its store kept, and the client retries.
const applied = [];
let died;
const death = new Promise((resolve) => (died = resolve));
const backend = {
  async transfer(amount) {
    applied.push(amount);
    if (applied.length > 1) return;
    died();
    await new Promise(() => {}); // the process is gone: this never returns
  },
};

${PLAIN_READ}`,
    steps: `await ask();
await click();
resume(); // the first resume: the process dies in it, right after the transfer
await death;
await restart(); // a new process, over what the store kept
await resume(); // the client retries
const said = told.join('; ') || 'nothing';
report(applied.length !== 1 || !told.includes('the transfer happened'), \`The backend applied \${applied.length}. The user was told: \${said}.\`);`,
    shows: 'the process dies right after the approved transfer, restarts, and the client retries: the transfer runs again, or the user is never told it happened',
    expected: 'The backend applied 1. The user was told: the transfer happened.',
    actual: (store) =>
      store === 'memory'
        ? 'The backend applied 1. The user was told: nothing (the paused run went with the in-memory store, so the retry found nothing to resume).'
        : 'The backend applied 2 (the retry resumed what the store kept, from before the transfer, and ran it again), or 1 with the user told nothing (the retry was refused, and no one said the transfer had happened).',
  },
  'double-resume': {
    property: 'at-most-once',
    // Both resumes read the approval unspent and both ran it: each ran while the record still offered it, from a view
    // older than the other's use.
    withKey: ['no-resurrection', 'fresh-view'],
    world: `${COUNTING}

// Two requests resume at once (a second tab, a double submit). A resume's read of the paused run (from the app's
// store or the framework's checkpointer) waits until the other resume has read too, so both read it before either
// has run it: the interleaving the bug needs.
let reads = 0;
let bothRead;
const meeting = new Promise((resolve) => (bothRead = resolve));
async function resumeRead(value) {
  if (++reads === 2) bothRead();
  await meeting;
  return value;
}`,
    steps: `await ask(); // the card: transfer 100 from acct-1
await click(); // the user approves, once
await Promise.all([resume(), resume()]); // two resumes of that one approval
report(applied.length > 1, \`The user approved one transfer of 100. The backend applied \${applied.length}.\`);`,
    shows: 'two concurrent resumes of one approval (a second tab, a double submit) both run the approved transfer',
    expected: 'The backend applied 1.',
    actual: 'The backend applied 2.',
  },
  'world-drift': {
    property: 'binding',
    world: `// The payment backend: every transfer it applied, with the owner of acct-1 when it applied it.
const accounts = { 'acct-1': { owner: 'Ada' } };
const applied = [];
const backend = {
  async transfer(amount) {
    applied.push({ amount, owner: accounts['acct-1'].owner });
  },
};

${PLAIN_READ}`,
    steps: `await ask(); // the card: transfer 100 from acct-1, owned by Ada
accounts['acct-1'].owner = 'Mallory'; // the account changes after the card was shown
await click(); // the user approves what the card showed
await resume();
const ran = applied.map((t) => \`\${t.amount} while acct-1 was \${t.owner}'s\`).join(', ') || 'nothing';
report(applied.some((t) => t.owner !== 'Ada'), \`The user approved a transfer from Ada's acct-1. The backend applied: \${ran}.\`);`,
    shows: 'the approved transfer runs although the account changed after the user saw the card: nothing binds the approval to what the user saw',
    expected: 'The backend applied: nothing (the call is refused, the user asked again).',
    actual: "The backend applied: 100 while acct-1 was Mallory's.",
  },
  'tool-retry': {
    property: 'exactly-once-delivery',
    world: `// The payment backend, behind the tool's transport. The first response is lost after the backend applied the
// transfer, so the transport sends the same request again, as HTTP clients with retries do. The request carries no
// idempotency key, because the documented tool has none to give: nothing the framework hands it names the approval.
const applied = [];
const backend = {
  async transfer(amount) {
    for (let attempt = 1; ; attempt++) {
      applied.push(amount); // the backend applies the request...
      if (attempt > 1) return; // ...but the first response is lost: the transport sends it again
    }
  },
};

${PLAIN_READ}`,
    steps: `await ask();
await click();
await resume();
report(applied.length > 1, \`The user approved one transfer of 100. The backend applied \${applied.length}.\`);`,
    shows:
      "a transport retry of the approved call applies the transfer twice: the documented tool passes the backend no key derived from the approval (a gap of the documented pattern, which the app must fill, rather than of the framework's code)",
    expected: 'The backend applied 1.',
    actual: 'The backend applied 2.',
  },
  tamper: {
    property: 'integrity',
    world: `${COUNTING}

${PLAIN_READ}`,
    steps: `await ask(); // the card: transfer 100 from acct-1
await forge(); // whoever holds the paused run approves it; no human clicked
await resume();
report(applied.length > 0, \`No one approved the transfer. The backend applied \${applied.length}.\`);`,
    shows: 'an approval no human gave, written by whoever holds the paused run, runs the transfer',
    expected: 'The backend applied 0.',
    actual: 'The backend applied 1.',
  },
  replay: {
    property: 'integrity',
    alsoShows: ['at-most-once'],
    world: `// The backend: every transfer it applied, and every notice it sent the customer.
const applied = [];
const notified = [];
const backend = {
  async transfer(amount) {
    applied.push(amount);
  },
  async notify() {
    notified.push('refund-sent');
  },
};

${PLAIN_READ}`,
    steps: `await ask(); // the card: transfer 100 from acct-1
await click(); // the user approves it
await resume(); // the transfer runs, and the agent goes on: a second card, for a notice to the customer
await askNext(); // that card is shown; the user has not answered it
await resume(); // the first answer again (a double submit, a retry, a stale tab)
report(applied.length > 1 || notified.length > 0, \`The user approved one transfer of 100 and nothing else. The backend applied \${applied.length} transfer(s) and sent \${notified.length} notice(s).\`);`,
    shows: "the user's answer to a card is sent again after it ran: it answers the agent's next card, which the user never approved, or runs the first again",
    expected: 'The backend applied 1 transfer(s) and sent 0 notice(s).',
    actual: 'The backend applied 1 transfer(s) and sent 1 notice(s).',
  },
  'error-after-effect': {
    property: 'disclosure',
    world: `// The payment backend: it applies the transfer, then its response times out, so the tool throws.
const applied = [];
const backend = {
  async transfer(amount) {
    applied.push(amount);
    throw new Error('the payment service timed out');
  },
};

${PLAIN_READ}`,
    steps: `await ask();
await click();
await resume();
const said = told.join('; ') || 'nothing';
report(applied.length > 0 && !told.includes('the transfer happened'), \`The backend applied \${applied.length}. The user was told: \${said}.\`);`,
    shows: 'the transfer happened, then the tool threw, and the user is told it failed',
    expected: 'The backend applied 1. The user was told: the transfer happened (or that it is unknown).',
    actual: 'The backend applied 1. The user was told: the transfer failed.',
  },
};

export const scenarioRepro = (scenario: string): ScenarioRepro | undefined => SCENARIOS[scenario as ScenarioId];

/** The scenarios a reproduction is written for. */
export const REPRO_SCENARIOS = Object.keys(SCENARIOS) as ScenarioId[];

/** What a scenario with no reproduction would need that a few lines around a framework's public API do not give. */
const NOT_WRITTEN: Partial<Record<ScenarioId, string>> = {
  'two-approvals': "two answers racing over two pending calls at the framework's own steps",
  'three-tabs': "three resumes meeting at the framework's own steps",
};

export const notWrittenWhy = (scenario: string) =>
  `no standalone reproduction of the ${scenario} scenario is written yet${NOT_WRITTEN[scenario as ScenarioId] ? `: its schedule needs ${NOT_WRITTEN[scenario as ScenarioId]}` : ''}.`;

export { REPORT };
