// docs/maintainer-ci.yml, the workflow a framework's maintainers copy, runs as written: it parses, sets up pnpm
// without corepack (whose shim makes `npm i -g pnpm` fail), builds the package with its workspace dependencies, picks
// a Node that both the suite and the worked example's framework accept, marks exactly the lines its prose says, runs
// every scenario, and its suite-side steps, run here by bash as GitHub runs them, go green on a build that changed
// nothing and red on one that got worse. The framework is a fixture (maintainer-ci.fixtures.ts): seconds, offline.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import semver from 'semver';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { framework } from './frameworks.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const text = readFileSync(join(root, 'docs/maintainer-ci.yml'), 'utf8');
const json = <T>(path: string) => JSON.parse(readFileSync(join(root, path), 'utf8')) as T;

interface Step {
  name?: string;
  uses?: string;
  run?: string;
  with?: Record<string, unknown>;
  'working-directory'?: string;
}
const workflow = parse(text) as { jobs: Record<string, { env?: Record<string, string>; steps: Step[] }> };
const [job] = Object.values(workflow.jobs);
const steps = job!.steps;
const runs = steps.filter((s) => s.run !== undefined);
const NUMBERS = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten'];

/** The one step whose script matches `pattern`. */
function step(pattern: RegExp): Step {
  const found = runs.filter((s) => pattern.test(s.run!));
  if (found.length !== 1) throw new Error(`${found.length} steps run ${pattern}, not one`);
  return found[0]!;
}

describe('docs/maintainer-ci.yml', () => {
  it('parses, with one job that checks out the framework and the suite (the repository package.json names)', () => {
    expect(Object.keys(workflow.jobs)).toHaveLength(1);
    const checkouts = steps.filter((s) => s.uses?.startsWith('actions/checkout@'));
    expect(checkouts.map((s) => s.with?.['path'])).toEqual(['framework', 'suite']);
    const { repository } = json<{ repository: { url: string } }>('packages/conformance/package.json');
    expect(repository.url).toContain(`github.com/${String(checkouts[1]!.with?.['repository'])}.git`);
  });

  it('marks exactly the lines a maintainer edits, as many as its prose says', () => {
    // A marked line is one with a value or a command before its `# EDIT:` (not the prose's comment lines).
    const marked = text.split('\n').filter((line) => !/^\s*#/.test(line) && line.includes('# EDIT:'));
    const said = /edit the (\w+)\s+lines marked `# EDIT:`/.exec(text.replace(/\n#\s*/g, ' '))?.[1];
    expect(said, 'the prose says how many lines to edit').toBeDefined();
    expect(marked.length).toBe(NUMBERS.indexOf(said!));
    // Nothing else is left to fill in.
    expect(text).not.toMatch(/<[A-Z][A-Z_-]*>|\bYOUR_[A-Z]|\bTODO\b|\bFIXME\b|\bXXX\b|placeholder/);
  });

  it("matches the README's maintainer section: the same count of marked lines, and no narrowed run", () => {
    const said = /edit the (\w+)\s+lines marked `# EDIT:`/.exec(text.replace(/\n#\s*/g, ' '))?.[1];
    const section = /^## For framework maintainers\n([\s\S]*?)(?=^## )/m.exec(readFileSync(join(root, 'README.md'), 'utf8'))?.[1] ?? '';
    expect(section.replace(/\s+/g, ' ')).toContain(`edit its ${said} lines marked \`# EDIT:\``);
    const commands = [...section.matchAll(/```sh\n([\s\S]*?)```/g)].flatMap((m) => m[1]!.split('\n')).filter((l) => /conformance run/.test(l));
    expect(commands.length).toBeGreaterThan(0);
    for (const command of commands) expect(command).not.toMatch(/--(scenario|wiring|store|property|sampled)\b/);
    expect(section).toMatch(/`two-approvals`/);
  });

  it('installs pnpm without corepack, at the version the suite pins', () => {
    for (const s of runs) expect(s.run).not.toMatch(/corepack/);
    const pinned = json<{ packageManager: string }>('package.json').packageManager;
    expect(step(/npm i(nstall)? -g pnpm@/).run!.trim()).toBe(`npm i -g ${pinned}`);
  });

  it('builds the package with its workspace dependencies (turbo --filter), for the framework the env names', () => {
    const { FRAMEWORK, PACKAGE_DIR } = job!.env!;
    const local = framework(FRAMEWORK!).localName;
    expect(local, `${FRAMEWORK} takes a file: build`).toBeDefined();
    const build = step(/turbo build/).run!;
    expect(build).toContain(`turbo build --filter=${local}`);
    expect(build).not.toMatch(/pnpm --filter \S+ build/);
    expect(PACKAGE_DIR).toMatch(new RegExp(`(^|/)${local!.split('/').at(-1)}$`));
  });

  it('runs on a Node the suite and the worked example (ai, as pinned in the workspace) both accept', () => {
    const node = String(steps.find((s) => s.uses?.startsWith('actions/setup-node@'))!.with!['node-version']);
    const lowest = semver.coerce(node)!.version;
    const suite = json<{ engines: { node: string } }>('package.json').engines.node;
    const ai = json<{ engines: { node: string } }>('packages/adapters/ai-sdk/pins/v7/node_modules/ai/package.json').engines.node;
    expect(semver.satisfies(lowest, suite), `Node ${node} and the suite's ${suite}`).toBe(true);
    expect(semver.satisfies(lowest, ai), `Node ${node} and ai's ${ai}`).toBe(true);
  });

  it('runs every scenario, wiring, store and property: no narrowing', () => {
    for (const s of runs.filter((r) => /conformance run/.test(r.run!))) expect(s.run).not.toMatch(/--(scenario|wiring|store|property|sampled)\b/);
  });
});

describe("docs/maintainer-ci.yml's suite-side steps, run by bash against a local build", () => {
  const branch = step(/conformance run --framework "\$FRAMEWORK@file:/);
  const release = step(/conformance run --framework "\$FRAMEWORK@latest"/);
  const compare = step(/conformance diff/);
  let workspace: string;
  let env: NodeJS.ProcessEnv;

  /** Writes the local build: a packed package's folder, whose dist/index.js says which wiring it runs. */
  const build = (wiring: string) => writeFile(join(workspace, 'framework/packages/fake-fw/dist/index.js'), `export const wiring = '${wiring}';\n`);

  /** A step's script as GitHub runs it (bash -e), in its working directory. */
  function execute(s: Step) {
    expect(s['working-directory']).toBe('suite');
    return spawnSync('bash', ['-e', '-c', s.run!], { cwd: join(workspace, 'suite'), env, encoding: 'utf8', timeout: 60_000 });
  }

  beforeAll(async () => {
    workspace = await mkdtemp(join(tmpdir(), 'ac-maintainer-ci-'));
    await mkdir(join(workspace, 'framework/packages/fake-fw/dist'), { recursive: true });
    await writeFile(join(workspace, 'framework/packages/fake-fw/package.json'), JSON.stringify({ name: 'fake-fw', version: '1.1.0', type: 'module', exports: './dist/index.js' }));
    await build('cas-fresh');
    // The suite's checkout: its `conformance` script, run from the workspace's source, with the fixture's adapter.
    await mkdir(join(workspace, 'suite'));
    const adapter = fileURLToPath(new URL('./maintainer-ci.fixtures.ts', import.meta.url));
    const script = `${join(root, 'node_modules/.bin/tsx')} --conditions=@approval-conformance/source ${join(root, 'packages/conformance/src/cli.ts')} --adapter ${adapter}`;
    await writeFile(join(workspace, 'suite/package.json'), JSON.stringify({ name: 'suite', private: true, scripts: { conformance: script } }));
    env = {
      ...process.env,
      GITHUB_WORKSPACE: workspace,
      FRAMEWORK: 'fakefw',
      PACKAGE_DIR: 'packages/fake-fw',
      APPROVAL_CONFORMANCE_CACHE: join(workspace, 'cache'),
    };
  });

  afterAll(() => rm(workspace, { recursive: true, force: true }));

  it('goes green on a build that changed nothing, and red on one that got worse', { timeout: 120_000 }, async () => {
    for (const s of [branch, release, compare]) {
      const result = execute(s);
      expect(result.status, `${s.name}: ${result.stderr}`).toBe(0);
    }
    const branchResults = JSON.parse(await readFile(join(workspace, 'report-branch/results.json'), 'utf8'));
    expect(branchResults.targets[0]).toMatchObject({ framework: 'fakefw', version: '1.1.0+local', spec: `fakefw@file:${join(workspace, 'framework/packages/fake-fw')}` });
    // Every scenario ran.
    expect(new Set(branchResults.cells.map((c: { scenario: string }) => c.scenario))).toContain('two-approvals');
    expect(branchResults.options.scenarios.length).toBeGreaterThan(5);
    const release1 = JSON.parse(await readFile(join(workspace, 'report-release/results.json'), 'utf8'));
    expect(release1.targets[0]).toMatchObject({ framework: 'fakefw', version: '1.0.0' });
    await readFile(join(workspace, 'verdict-changes.txt'), 'utf8');

    // The branch now spends after acting: the same steps again, and the comparison fails the job.
    await build('after-snapshot');
    expect(execute(branch).status).toBe(0);
    const red = execute(compare);
    expect(red.status).toBe(1);
    const changes = await readFile(join(workspace, 'verdict-changes.txt'), 'utf8');
    expect(changes).toBe(red.stdout);
    expect(changes).toMatch(/at-most-once/);
  });
});
