// DBOS in a standalone reproduction: the app of src/app.ts in plain JavaScript, on a PostgreSQL server (DATABASE_URL,
// or the one `npx dbos postgres start` runs in Docker), in a database of its own that the script drops at the end. The
// agent workflow makes its model call a step (scripted: transfer 100), publishes the card with setEvent, waits with
// recv(topic, 120), runs the transfer in a step and publishes the outcome; it then asks for the next action (a notice
// to the customer) the same way. The endpoint a click reaches sends the answer and reads the outcome. A crash
// (crash-restart) is DBOS's process stopping with the step unfinished, and a new launch over the same database: recovery
// is DBOS's own. The guarded wiring needs the suite's guard: the runner says so for every framework (script.ts).
import type { FrameworkRepro } from '@approval-conformance/core/kit';

const IMPORTS = `import { DBOS } from '@dbos-inc/dbos-sdk';
import pg from 'pg';`;

/** The app, for the docs' recv/send, with `send`'s idempotency key per card where `keyed`. */
const app = (keyed: boolean) => `// A PostgreSQL server (DATABASE_URL, or the one \`npx dbos postgres start\` runs in Docker), and a system database of
// this run's own on it.
const server = process.env.DATABASE_URL ?? process.env.APPROVAL_CONFORMANCE_POSTGRES ?? 'postgres://postgres:dbos@localhost:5432/postgres';
const database = \`dbos_repro_\${process.pid}_\${Date.now()}\`;
const systemDatabaseUrl = Object.assign(new URL(server), { pathname: \`/\${database}\` }).toString();

// The agent, as DBOS's checkout tutorial and agent inbox write human-in-the-loop: the model's call is a step, the card
// an event, the answer a message recv waits for (two minutes), the approved tool a step, what happened an event. Then
// the agent goes on, and asks for its next action the same way.
const TOPIC = 'approval';
async function card(id, action, run) {
  const proposed = await DBOS.runStep(async () => action, { name: \`model \${id}\` }); // the scripted model's choice
  await DBOS.setEvent('card', { id, action: proposed });
  const answer = await DBOS.recv(TOPIC, 120);
  let outcome = \`the \${action} failed\`;
  if (answer === 'approve') {
    try {
      await DBOS.runStep(run, { name: action });
      outcome = \`the \${action} happened\`;
    } catch {
      // As the tutorial handles a step that failed: the user is told it did not go through.
    }
  }
  await DBOS.setEvent(\`outcome \${id}\`, outcome);
}
const agent = DBOS.registerWorkflow(
  async () => {
    await card('a1', 'transfer', () => backend.transfer(100));
    await card('a2', 'notice', () => backend.notify?.());
  },
  { name: 'agent' },
);

async function boot() {
  DBOS.setConfig({ name: 'repro', systemDatabaseUrl, executorID: 'local', applicationVersion: 'v1', logLevel: 'error' });
  await DBOS.launch();
}
await boot();

// The user's request: the agent runs to its card. The card's endpoint reads it, as the tutorial's checkout does.
const WORKFLOW = 'agent-1';
async function ask() {
  await DBOS.startWorkflow(agent, { workflowID: WORKFLOW })();
  await DBOS.getEvent(WORKFLOW, 'card');
}
async function askNext() {
  for (;;) {
    const shown = await DBOS.getEvent(WORKFLOW, 'card');
    if (shown?.id === 'a2') return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
let answer;
const click = async () => (answer = 'approve'); // the user's Approve: the answer the endpoint sends
const forge = click; // the same message, sent by anyone who can call DBOS.send: nothing in it comes from a user
// The endpoint the answer reaches: DBOS.send${keyed ? ", with an idempotency key for the card (send's fourth argument)" : ''}, then the outcome.
async function resume() {
  const to = await resumeRead(WORKFLOW);
  await DBOS.send(to, answer, TOPIC${keyed ? ", 'answer-a1'" : ''});
  const outcome = await DBOS.getEvent(to, 'outcome a1');
  if (outcome) told.push(outcome);
  // Not the endpoint's: the script's wait for what the answer may have woken. Where the agent already shows its next
  // card, the answer lands there, if anywhere: give the workflow three seconds to answer that card with it.
  const shown = await DBOS.getEvent(to, 'card', 0);
  if (shown && shown.id !== 'a1') await DBOS.getEvent(to, \`outcome \${shown.id}\`, 3);
}

// A new process: this one's DBOS stops (the step it was in never finishes) and a new launch over the same database
// recovers what it left pending, as DBOS does after a restart.
async function restart() {
  await DBOS.shutdown();
  await boot();
}`;

const FINISH = `// DBOS keeps the process alive: stop it, and drop this run's database.
await Promise.race([DBOS.shutdown(), new Promise((resolve) => setTimeout(resolve, 5000))]);
const admin = new pg.Client({ connectionString: server });
await admin.connect();
await admin.query(\`DROP DATABASE IF EXISTS "\${database}" WITH (FORCE)\`).catch(() => {});
await admin.end();
process.exit();`;

const README = `It needs a PostgreSQL server: \`npx dbos postgres start\` (DBOS's own command, after the install) runs one in Docker
at the address the script uses by default, \`postgres://postgres:dbos@localhost:5432\`; or set \`DATABASE_URL\` to any
server's, as in \`DATABASE_URL=postgres://user@host:5432/postgres node repro.mjs\`. The script makes a database of its
own there, and drops it when it ends.`;

export const dbosRepro: FrameworkRepro = {
  framework: 'dbos',
  packageName: '@dbos-inc/dbos-sdk',
  dependencies: (version) => ({ '@dbos-inc/dbos-sdk': version, pg: '^8.11.3' }),
  app(wiring) {
    if (wiring !== 'recv-send' && wiring !== 'send-idempotency-key') return undefined;
    return { imports: IMPORTS, app: app(wiring === 'send-idempotency-key'), readme: README, finish: FINISH };
  },
};
