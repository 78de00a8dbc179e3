// The LangGraph adapter on the two pinned versions (one per @langchain/core peer line), offline once installed.
import { describe, expect, it } from 'vitest';
import pg from 'pg';
import {
  exploreCell,
  parseSchedule,
  replaySelector,
  runWorld,
  SCENARIOS,
  worldNamePrefix,
  type Adapter,
  type PropertyVerdict,
} from '@approval-conformance/core';
import { skipStore, testPostgres } from '@approval-conformance/testkit';
import { langgraphAdapter } from './adapter.js';
import { pinnedLib } from './lib.js';

const doubleResume = SCENARIOS.get('double-resume')!;
/** CI's verdicts lane runs LangGraph's table on SQLite and PostgreSQL and compares them (.ci/run sets this). */
const COMPARED_IN_CI_LANE = process.env['APPROVAL_CONFORMANCE_POSTGRES_FROM_LANE'] === '1';
const replay = SCENARIOS.get('replay')!;

function verdicts(list: readonly PropertyVerdict[]) {
  return Object.fromEntries(list.map((v) => [v.property, v.verdict]));
}

describe.each([
  { line: 1 as const, version: '1.7.3', ids: true, strict: true, sqliteKeepsInterrupt: true },
  { line: 0 as const, version: '0.2.74', ids: false, strict: false, sqliteKeepsInterrupt: false },
])('langgraph $version', ({ line, version, ids, strict, sqliteKeepsInterrupt }) => {
  let adapter: Adapter;
  const load = async () => (adapter ??= await langgraphAdapter(await pinnedLib(line)));
  /**
   * The separate-node cells on SQLite, explored once with the default options however many tests read them: the
   * replay and crash-restart tests below, and the comparison with PostgresSaver, look at the same explorations.
   */
  const onSqlite = new Map<string, ReturnType<typeof exploreCell>>();
  const exploreOnSqlite = async (scenario: string) => {
    const a = await load();
    if (!onSqlite.has(scenario)) onSqlite.set(scenario, exploreCell({ adapter: a, wiring: 'separate-node', store: 'sqlite', scenario: SCENARIOS.get(scenario as never)! }));
    return onSqlite.get(scenario)!;
  };

  it('detects its features by trying them', async () => {
    const a = await load();
    expect(a.version).toBe(version);
    expect(a.applicability('double-resume', 'resume-by-id', 'memory').applicable).toBe(ids);
    expect(a.applicability('double-resume', 'strict-resume', 'memory').applicable).toBe(strict);
    expect(a.applicability('double-resume', 'separate-node', 'sqlite').applicable).toBe(true);
    expect(a.applicability('double-resume', 'no-such-wiring', 'memory')).toMatchObject({ applicable: false });
  });

  it.each(['memory', 'sqlite'])(
    'lets a duplicated "yes" land on the next interrupt with a plain resume (%s)',
    async (store) => {
      const cell = store === 'sqlite' ? await exploreOnSqlite('replay') : await exploreCell({ adapter: await load(), wiring: 'separate-node', store, scenario: replay });
      expect(cell.exhausted).toBe(true);
      expect(verdicts(cell.verdicts)).toEqual({ 'at-most-once': 'pass', binding: 'pass', integrity: 'fail' });
      const integrity = cell.verdicts.find((v) => v.property === 'integrity')!;
      expect(integrity.counterexample!.explanation).toBe('t2 executed a1.2 on no approval at all: no human approved it.');
    },
  );

  // Two calls, two interrupts pending at once: a plain resume value answers every pending interrupt, so the "yes" for
  // the transfer runs the notice the user denied (the Python library refuses a plain value there since
  // langchain-ai/langgraph#6108). A resume that names the interrupt answers only its own.
  it('runs a denied call with a plain resume when two interrupts are pending; resumes by id keep them apart', async () => {
    const twoApprovals = SCENARIOS.get('two-approvals')!;
    const cell = await exploreCell({ adapter: await load(), wiring: 'interrupt-node', store: 'memory', scenario: twoApprovals });
    expect(verdicts(cell.verdicts)).toEqual({ 'at-most-once': 'pass', binding: 'pass', integrity: 'fail', disclosure: 'pass' });
    const { explanation, steps } = cell.verdicts.find((v) => v.property === 'integrity')!.counterexample!;
    expect(explanation).toBe('t1 executed a2 as notify(template="refund-sent") on customer-1, but user had denied it.');
    expect(steps).toBe(4);
    if (!ids) return;
    const byId = await exploreCell({ adapter: await load(), wiring: 'resume-by-id', store: 'memory', scenario: twoApprovals });
    expect(verdicts(byId.verdicts)).toEqual({ 'at-most-once': 'pass', binding: 'pass', integrity: 'pass', disclosure: 'pass' });
  });

  it.skipIf(!ids)('refuses the duplicated "yes" when resumes name the interrupt id', async () => {
    const cell = await exploreCell({ adapter: await load(), wiring: 'resume-by-id', store: 'memory', scenario: replay });
    expect(verdicts(cell.verdicts)).toEqual({ 'at-most-once': 'pass', binding: 'pass', integrity: 'pass' });
  });

  it.each([
    ['re-proposal', 'separate-node', { binding: 'fail' }],
    ['world-drift', 'separate-node', { binding: 'fail' }],
    ['tool-retry', 'separate-node', { 'exactly-once-delivery': 'fail' }],
    ['error-after-effect', 'separate-node', { disclosure: 'fail', 'at-most-once': 'fail' }],
  ] as const)('%s on %s: %j', async (scenario, wiring, expected) => {
    const cell = await exploreCell({ adapter: await load(), wiring, store: 'memory', scenario: SCENARIOS.get(scenario)! });
    expect(cell.exhausted).toBe(true);
    expect(verdicts(cell.verdicts)).toEqual(expected);
  });

  it('executes an action edited with updateState after the human approved it', async () => {
    const cell = await exploreCell({ adapter: await load(), wiring: 'separate-node', store: 'memory', scenario: SCENARIOS.get('tamper')! });
    expect(cell.exhausted).toBe(true);
    expect(verdicts(cell.verdicts)).toEqual({ integrity: 'fail' });
  });

  it('loses the card of a new request when an overlapping resume writes the thread after it', async () => {
    const scenario = SCENARIOS.get('overlapping-turns')!;
    const cell = await exploreCell({ adapter: await load(), wiring: 'separate-node', store: 'memory', scenario });
    const verdict = cell.verdicts[0]!;
    expect(verdict).toMatchObject({ property: 'shown-is-recorded', verdict: 'fail', exhaustive: true });
    expect(verdict.counterexample!.steps).toBe(18);
    expect(verdict.counterexample!.explanation).toMatch(/the card the user acted on is not the one the record holds/);
  });

  it('re-runs the effect after a crash between the effect and its checkpoint write (SqliteSaver)', async () => {
    const cell = await exploreOnSqlite('crash-restart');
    expect(cell.exhausted).toBe(true);
    expect(verdicts(cell.verdicts)).toEqual({ 'at-most-once': 'fail', 'no-resurrection': 'pass', disclosure: 'pass' });
  });

  it.skipIf(!strict)('refuses the retry of a consumed interrupt in strict mode, so the action runs once', async () => {
    const scenario = SCENARIOS.get('error-after-effect')!;
    const cell = await exploreCell({ adapter: await load(), wiring: 'strict-resume', store: 'memory', scenario });
    expect(verdicts(cell.verdicts)).toEqual({ disclosure: 'fail', 'at-most-once': 'pass' });
  });

  // Why overlapping-turns explores two and five schedules more on PostgreSQL than on SQLite under 0.2.74: its
  // SqliteSaver (checkpoint-sqlite 0.1.5) numbers a task's writes by their place in each putWrites call, so the
  // resumed task's output replaces its __interrupt__ write. The other savers keep the interrupt under a reserved
  // index, and an app that reads the thread after t1 ran a2's task, before the next checkpoint, shows a2's card again.
  for (const store of ['memory', 'sqlite', 'postgres']) {
    const again = store !== 'sqlite' || sqliteKeepsInterrupt;
    it.skipIf(skipStore(store))(`${again ? 'shows' : 'does not show'} the card of an approval already spent (${store})`, async () => {
      const a = await load();
      // The same releases on every saver, and then nothing else: where the card is shown again, it is one gate more.
      const schedule = parseSchedule(`t2:1 t2:2 t2:3 t2:4 t2:5 t2:6 t2:7 t2:8 t1:1 t1:2 t1:3 t1:4 t2:9 t1:5 t1:6${again ? ' t2:10' : ''}`);
      const subject = { adapter: a, wiring: 'interrupt-node', store, scenario: SCENARIOS.get('overlapping-turns')! };
      const run = await runWorld(subject, replaySelector(schedule)).finally(() => a.release?.());
      expect(run).toMatchObject({ status: 'complete', turnErrors: [], unhandled: [] });
      const events = run.history.events;
      const spent = events.findIndex((e) => e.kind === 'record-write' && e.approvalId === 'a2' && e.state === 'spent');
      expect(spent).toBeGreaterThan(0);
      expect(events.slice(spent).some((e) => e.kind === 'delivery' && e.approvalId === 'a2')).toBe(again);
    });
  }

  it.skipIf(skipStore('postgres'))('gives the same verdicts on PostgresSaver as on SqliteSaver', async () => {
    const a = await load();
    // Every scenario whose space is small; the same schedules explored, the same length of shortest counterexample.
    // CI compares these and more (every wiring, both versions) in a lane of its own, which sets the variable: there
    // one scenario is left here, for the schemas below.
    const scenarios = ['replay', 'tamper', 'crash-restart', 're-proposal', 'world-drift', 'tool-retry', 'error-after-effect'];
    for (const scenario of COMPARED_IN_CI_LANE ? scenarios.slice(0, 1) : scenarios) {
      const on = async (store: string) => {
        const cell = store === 'sqlite' ? await exploreOnSqlite(scenario) : await exploreCell({ adapter: a, wiring: 'separate-node', store, scenario: SCENARIOS.get(scenario as never)! });
        return [cell.schedules, cell.exhausted, cell.verdicts.map((v) => [v.property, v.verdict, v.counterexample?.steps])];
      };
      expect(await on('postgres'), scenario).toEqual(await on('sqlite'));
    }
    // Each cell dropped its schemas when it ended.
    const pool = new pg.Pool({ connectionString: testPostgres().url });
    const left = await pool.query(`SELECT nspname FROM pg_namespace WHERE nspname LIKE $1`, [`${worldNamePrefix().replace(/_/g, '\\_')}%`]);
    await pool.end();
    expect(left.rows).toEqual([]);
  });

  it('runs the effect twice when two resumes race, with the effect in the interrupting node', async () => {
    const cell = await exploreCell({ adapter: await load(), wiring: 'interrupt-node', store: 'memory', scenario: doubleResume });
    expect(cell.exhausted).toBe(true);
    expect(verdicts(cell.verdicts)).toEqual({ 'at-most-once': 'fail', 'no-resurrection': 'fail', 'fresh-view': 'fail' });
    const amo = cell.verdicts.find((v) => v.property === 'at-most-once')!.counterexample!;
    expect(amo.story.filter((line) => line.includes('effect applied'))).toHaveLength(2);
  });

  it('still runs it twice with the effect in a separate node, but never before the record says spent', async () => {
    const cell = await exploreCell({ adapter: await load(), wiring: 'separate-node', store: 'memory', scenario: doubleResume });
    expect(cell.exhausted).toBe(true);
    expect(verdicts(cell.verdicts)).toEqual({ 'at-most-once': 'fail', 'no-resurrection': 'pass', 'fresh-view': 'fail' });
  });
});
