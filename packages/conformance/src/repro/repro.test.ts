// Every reproduction this suite writes, run on its own against the framework version the adapter's tests pin (no
// registry: the pin's node_modules), must agree with the published verdict of the property it shows: exit 1 where
// the cell fails, exit 0 where it passes. The passing ones (OpenAI Agents' server-owned state under two resumes, say)
// show that a script does not fail whatever it runs on; the CI step installs the published ones from the registry.
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { readResults, type ResultCell } from '../results.js';
import { frameworkRepros, REPRO_SCENARIOS, reproFiles, reproFor } from './index.js';
import { storyPath } from '../render/story-text.js';
import { scenarioRepro } from './scenarios.js';
import { testPostgres } from '@approval-conformance/testkit';

const root = fileURLToPath(new URL('../../../../', import.meta.url));
const run = promisify(execFile);

/** The pinned versions the adapters' tests install, with their node_modules. */
const PINS = [
  { framework: 'ai', version: '7.0.185', modules: 'packages/adapters/ai-sdk/pins/v7/node_modules' },
  { framework: 'openai-agents', version: '0.20.0', modules: 'packages/adapters/openai-agents/pins/v0_20/node_modules' },
  { framework: 'langgraph', version: '1.7.3', modules: 'packages/adapters/langgraph/pins/v1/node_modules' },
  { framework: 'langgraph', version: '0.2.74', modules: 'packages/adapters/langgraph/pins/v0/node_modules' },
  { framework: 'adk', version: '2.0.0', modules: 'packages/adapters/adk/pins/v2/node_modules' },
  { framework: 'mastra', version: '1.71.0', modules: 'packages/adapters/mastra/pins/v1_71/node_modules' },
  { framework: 'langgraph-server', version: '1.5.1', modules: 'packages/adapters/langgraph-server/pins/v1/node_modules' },
  { framework: 'mcp', version: '1.32.2', modules: 'packages/adapters/mcp/pins/v1/node_modules' },
  { framework: 'mcp', version: '2.4.0', modules: 'packages/adapters/mcp/pins/v2/node_modules' },
  // DBOS keeps everything in PostgreSQL: its scripts run on the tests' server (APPROVAL_CONFORMANCE_POSTGRES).
  { framework: 'dbos', version: '5.3.0', modules: 'packages/adapters/dbos/pins/v5/node_modules', store: 'postgres' },
];

// The wirings whose scripts run here: each framework's docs' default (or the one the one-minute answer shows) and every
// one that passes some scenario, so that both verdicts are checked; the variants (a stream, a resume by id, the
// signed route) differ from these by a line, and CI runs every published script from the registry anyway.
const WIRINGS: Record<string, readonly string[]> = {
  ai: ['ui-client-history'],
  'openai-agents': ['run-state', 'server-owned-state'],
  langgraph: ['interrupt-node', 'strict-resume'],
  adk: ['require-confirmation'],
  mastra: ['agent-approval', 'workflow-suspend'],
  'langgraph-server': ['reject', 'reject-by-id'],
  mcp: ['elicit-input', 'input-required', 'input-required-codec'],
  dbos: ['recv-send', 'send-idempotency-key'],
};

// A server takes seconds to start: its scripts run for a pass and a fail only (scripts/repro-check.sh runs them all),
// and overlapping-turns, whose verdict differs by how the resume names the interrupt.
const ONLY: Record<string, readonly string[]> = { 'langgraph-server': ['double-resume', 'tamper', 'overlapping-turns'] };

// A failing cell's script that is published as it is written here (reports/repro, the same package.json and
// repro.mjs) is run by CI from the registry (scripts/repro-check.sh, in a lane beside the tests, which sets this
// variable): there it is left out, so that each script runs once. `pnpm test` alone runs them all.
const CHECKED_FROM_REGISTRY = process.env['APPROVAL_CONFORMANCE_REPROS_FROM_REGISTRY'] === '1';
const publishedScripts = new Set(
  readdirSync(join(root, 'reports/repro'), { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(join(root, 'reports/repro', d.name, 'repro.mjs')))
    .map((d) => ['package.json', 'repro.mjs'].map((f) => readFileSync(join(root, 'reports/repro', d.name, f), 'utf8')).join('\0')),
);

const dirs: string[] = [];
afterAll(() => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

/** Writes a reproduction into a new folder whose node_modules is the pin's, runs it, and returns its exit code. */
async function runRepro(files: Record<string, string>, modules: string): Promise<{ code: number; out: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'repro-'));
  dirs.push(dir);
  for (const [name, text] of Object.entries(files)) await writeFile(join(dir, name), text);
  await symlink(join(root, modules), join(dir, 'node_modules'));
  try {
    const { stdout } = await run(process.execPath, ['repro.mjs'], { cwd: dir, timeout: 240_000 });
    return { code: 0, out: stdout };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof e.code === 'number' ? e.code : -1, out: `${e.stdout ?? ''}${e.stderr ?? ''}` };
  }
}

const published = await readResults(join(root, 'reports/results.json'));
/** The published verdict a script must agree with: fail when any property it shows fails there (its store). */
const verdictOf = (framework: string, version: string, wiring: string, scenario: string, store: string): ResultCell | undefined => {
  const { property, alsoShows = [] } = scenarioRepro(scenario)!;
  const mine = published.cells.filter(
    (c) => c.framework === framework && c.version === version && c.wiring === wiring && c.store === store && c.scenario === scenario && [property, ...alsoShows].includes(c.property),
  );
  return mine.find((c) => c.verdict === 'fail') ?? mine.find((c) => c.property === property);
};

for (const pin of PINS) {
  const store = pin.store ?? 'memory';
  describe.skipIf(!existsSync(join(root, pin.modules)) || (store === 'postgres' && !testPostgres().url))(`${pin.framework}@${pin.version}: each reproduction agrees with the published verdict`, () => {
    // Without the pin's cells in the published results every script below would be left out, silently: when the
    // reports move to a newer release (the default matrix takes each line's newest), move the pin with them.
    it('has its version in the published results', () => {
      const versions = [...new Set(published.cells.filter((c) => c.framework === pin.framework).map((c) => c.version))];
      expect(versions, `reports/results.json has no ${pin.framework}@${pin.version}: bump the pin in ${pin.modules.replace(/\/node_modules$/, '')}`).toContain(pin.version);
    });
    for (const wiring of WIRINGS[pin.framework]!) {
      for (const scenario of REPRO_SCENARIOS.filter((s) => ONLY[pin.framework]?.includes(s) ?? true)) {
        const written = reproFiles({ framework: pin.framework, version: pin.version, wiring, scenario, store }, frameworkRepros());
        if (written.kind === 'cannot') continue;
        const cell = verdictOf(pin.framework, pin.version, wiring, scenario, store);
        if (!cell || (cell.verdict !== 'pass' && cell.verdict !== 'fail')) continue;
        const fromRegistry =
          CHECKED_FROM_REGISTRY && cell.verdict === 'fail' && written.kind === 'repro' && publishedScripts.has(`${written.files['package.json']}\0${written.files['repro.mjs']}`);
        const name = `${wiring} ${scenario} (${store}): ${cell.property} ${cell.verdict}s`;
        (fromRegistry ? it.skip : it.concurrent)(fromRegistry ? `${name} (run from the registry in this CI run)` : name, async () => {
          const plan = written;
          expect(plan.kind).toBe('repro');
          if (plan.kind !== 'repro') return;
          expect(plan.lines).toBeLessThanOrEqual(150);
          expect(JSON.parse(plan.files['package.json']).dependencies).not.toHaveProperty(['@approval-conformance/core']);
          const { code, out } = await runRepro(plan.files, pin.modules);
          expect({ code, out }).toMatchObject({ code: cell.verdict === 'fail' ? 1 : 0 });
        });
      }
    }
  });
}

describe("the guard's pattern in a reproduction", () => {
  const pin = PINS.find((p) => p.framework === 'openai-agents')!;
  it.skipIf(!existsSync(join(root, pin.modules)))('spending the approval atomically before the transfer keeps two resumes to one transfer', async () => {
    const plan = reproFiles({ framework: pin.framework, version: pin.version, wiring: 'run-state', scenario: 'double-resume' }, frameworkRepros());
    if (plan.kind !== 'repro') throw new Error(plan.why);
    // The guard's step, by hand: before it acts, the tool spends the approval (its call id) in one synchronous
    // check-and-set, and a call whose approval is spent does not act again.
    const act = '    await backend.transfer(amount);';
    expect(plan.files['repro.mjs']).toContain(act);
    const guarded = plan.files['repro.mjs']
      .replace('async execute({ amount }) {', 'async execute({ amount }, _context, details) {')
      .replace(act, `    const approval = details.toolCall.callId;\n    if (spent.has(approval)) return 'transfer done';\n    spent.add(approval);\n${act}`)
      .replace('const told = [];', 'const told = [];\nconst spent = new Set();');
    const unguarded = await runRepro(plan.files, pin.modules);
    const kept = await runRepro({ ...plan.files, 'repro.mjs': guarded }, pin.modules);
    expect(unguarded).toMatchObject({ code: 1, out: expect.stringContaining('The backend applied 2.') });
    expect(kept).toMatchObject({ code: 0, out: expect.stringContaining('The backend applied 1.') });
  });
});

describe('what repro says of a cell', () => {
  const cell = (over: Partial<ResultCell>): ResultCell =>
    ({ id: 'x', framework: 'openai-agents', version: '0.20.0', wiring: 'run-state', store: 'memory', scenario: 'double-resume', mode: 'exhaustive', property: 'at-most-once', exhaustive: true, schedules: 9, verdict: 'fail', ...over }) as ResultCell;

  it('a passing cell has nothing to reproduce', () => {
    expect(reproFor(cell({ verdict: 'pass' }), frameworkRepros(), [])).toMatchObject({ kind: 'nothing' });
  });

  it('a guarded wiring, a scenario or a framework with no script says why it cannot', () => {
    expect(reproFor(cell({ wiring: 'guarded-run-state' }), frameworkRepros(), [])).toMatchObject({ kind: 'cannot', why: expect.stringContaining("this suite's approval guard") });
    expect(reproFor(cell({ framework: 'ai', version: '6.0.0', wiring: 'native-approval', scenario: 'overlapping-turns', property: 'shown-is-recorded' }), frameworkRepros(), [])).toMatchObject({ kind: 'cannot', why: expect.stringContaining("no overlapping-turns reproduction is written for ai's native-approval") });
    expect(reproFor(cell({ scenario: 'three-tabs' }), frameworkRepros(), [])).toMatchObject({ kind: 'cannot', why: expect.stringContaining('three-tabs') });
    expect(reproFor(cell({ framework: 'langgraph', version: '1.7.3', wiring: 'interrupt-node', store: 'sqlite', scenario: 'crash-restart', property: 'at-most-once' }), frameworkRepros(), [])).toMatchObject({ kind: 'cannot', why: expect.stringContaining("langgraph's interrupt-node on the sqlite store") });
    expect(reproFor(cell({ framework: 'langgraph-server', wiring: 'interrupt' }), frameworkRepros(), [])).toMatchObject({ kind: 'cannot', why: expect.stringContaining("langgraph-server's interrupt") });
    expect(reproFor(cell({ framework: 'mastra', version: '1.71.0', wiring: 'one-time-approval' }), frameworkRepros(), [])).toMatchObject({ kind: 'cannot', why: expect.stringContaining('the first transfer held') });
  });

  it('a failing cell gets a folder that pins the framework and names the cells it reproduces', () => {
    const failing = cell({ id: 'openai-agents@0.20.0/run-state/memory/double-resume/at-most-once', counterexample: { steps: 4 } as ResultCell['counterexample'] });
    const plan = reproFor(failing, frameworkRepros(), [failing]);
    expect(plan.kind).toBe('repro');
    if (plan.kind !== 'repro') return;
    expect(JSON.parse(plan.files['package.json']).dependencies).toEqual({ '@openai/agents': '0.20.0', zod: '^4.1.0' });
    expect(plan.files['README.md']).toContain('`openai-agents@0.20.0/run-state/memory/double-resume/at-most-once` (4 steps)');
    expect(plan.files['repro.mjs']).toContain("from '@openai/agents'");
    expect(plan.files['repro.mjs']).not.toContain('approval-conformance/');
  });

  it("a README names each cell's story, links it where the reports are known, and tells the shortest one itself", () => {
    const id = 'openai-agents@0.20.0/run-state/memory/double-resume/at-most-once';
    const story = ['t1 read the record: a1 <unspent>', 't2 ran | the transfer'];
    const failing = cell({ id, counterexample: { steps: 4, schedule: 't1:1 t2:1', story, witness: [1], explanation: 'x', history: [] } });
    const plan = reproFor(failing, frameworkRepros(), [failing]);
    if (plan.kind !== 'repro') throw new Error(plan.kind);
    // Written from any results file (repro --out DIR): where the story is in that file's reports, and the story itself.
    expect(plan.files['README.md']).toContain(`- \`${id}\` (4 steps): \`stories/openai-agents@0.20.0.md#run-state-memory-double-resume-at-most-once\``);
    expect(plan.files['README.md']).toContain(`The suite's story of \`${id}\`, schedule \`t1:1 t2:1\` (in bold, the steps that show the bug):\n\n1. t1 read the record: a1 &lt;unspent&gt;\n2. **t2 ran \\| the transfer**\n`);
    // Written into the reports (reports/repro/NAME/): a link to the story beside it.
    const linked = reproFor(failing, frameworkRepros(), [failing], (c) => `../../${storyPath(c)}`);
    if (linked.kind !== 'repro') throw new Error(linked.kind);
    expect(linked.files['README.md']).toContain(`- \`${id}\` (4 steps): [its story](../../stories/openai-agents@0.20.0.md#run-state-memory-double-resume-at-most-once)`);
    expect(linked.files['repro.mjs']).toBe(plan.files['repro.mjs']);
  });

  it('a script declares forge (an approval sent with no user) only where its steps send one: every framework, wiring and scenario', () => {
    const units = new Map(published.cells.map((c) => [`${c.framework}|${c.version}|${c.wiring}|${c.store}`, c]));
    let checked = 0;
    for (const c of units.values()) {
      for (const scenario of REPRO_SCENARIOS) {
        const plan = reproFiles({ framework: c.framework, version: c.version, wiring: c.wiring, scenario, store: c.store }, frameworkRepros());
        if (plan.kind !== 'repro') continue;
        checked++;
        const forges = /\bforge\(/.test(scenarioRepro(scenario)!.steps);
        expect(/\bforge\b/.test(plan.files['repro.mjs']), `${c.framework}@${c.version} ${c.wiring} ${scenario}`).toBe(forges);
      }
    }
    expect(checked).toBeGreaterThan(100);
    // And the published ones, written by report from the same writers.
    for (const name of readdirSync(join(root, 'reports/repro')).filter((n) => existsSync(join(root, 'reports/repro', n, 'repro.mjs')))) {
      expect(/\bforge\b/.test(readFileSync(join(root, 'reports/repro', name, 'repro.mjs'), 'utf8')), name).toBe(name.endsWith('-tamper'));
    }
  });
});
