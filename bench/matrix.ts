// The runner's speed on a matrix: wall time, schedules and schedules per second per framework.
//
//   pnpm bench:matrix                      the default matrix twice: an empty install cache (cold), then filled (warm)
//   pnpm bench:matrix --warm               only the warm run, on this machine's install cache as it is
//   pnpm bench:matrix --before REF         the explorer at git REF against this one, in one run: REF's checkout runs
//                                          the matrix, then this tree does, on the same warm cache; then the ratios
//   pnpm bench:matrix --framework ai       any `run` option narrows the matrix (with --before too)
//   pnpm bench:matrix --from FILE [FILE2]  the figures of finished runs' results (two: before and after, with ratios)
//
// `--before` installs REF's workspace into a temporary git worktree (pnpm, from the store) and removes it after. The
// default matrix at the commit before issue 14 (b3d16a1) takes about two hours on 2 cores.
import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { failer, takeFlag } from './args.js';

interface Cell {
  framework: string;
  version: string;
  wiring: string;
  store: string;
  scenario: string;
  schedules: number;
  ms?: number;
}

interface Figures {
  /** Per framework: schedules run and milliseconds spent exploring (the workers' time, summed over units). */
  readonly frameworks: Map<string, { schedules: number; ms: number; units: number }>;
  readonly wallMs?: number;
}

const args = process.argv.slice(2);
const fail = failer('matrix');
const flag = (name: string) => takeFlag(args, name, fail);

const clock = (ms: number) => {
  const s = Math.round(ms / 1000);
  const h = Math.floor(s / 3600);
  const mm = String(Math.floor((s % 3600) / 60)).padStart(h ? 2 : 1, '0');
  return `${h ? `${h}:` : ''}${mm}:${String(s % 60).padStart(2, '0')}`;
};

async function figures(file: string, wallMs?: number): Promise<Figures> {
  const { cells } = JSON.parse(await readFile(file, 'utf8')) as { cells: Cell[] };
  // Cells of one unit (a scenario on a wiring and store) share its schedules and time: count each unit once.
  const units = new Map<string, Cell>();
  for (const c of cells) if (c.ms !== undefined) units.set(`${c.framework}@${c.version}/${c.wiring}/${c.store}/${c.scenario}`, c);
  const frameworks = new Map<string, { schedules: number; ms: number; units: number }>();
  for (const c of units.values()) {
    const f = frameworks.get(c.framework) ?? { schedules: 0, ms: 0, units: 0 };
    frameworks.set(c.framework, { schedules: f.schedules + c.schedules, ms: f.ms + (c.ms ?? 0), units: f.units + 1 });
  }
  return { frameworks, ...(wallMs === undefined ? {} : { wallMs }) };
}

function table(runs: readonly [string, Figures][]) {
  const names = [...new Set(runs.flatMap(([, f]) => [...f.frameworks.keys()]))];
  const total = (f: Figures) => [...f.frameworks.values()].reduce((a, b) => ({ schedules: a.schedules + b.schedules, ms: a.ms + b.ms, units: a.units + b.units }), { schedules: 0, ms: 0, units: 0 });
  const rows = [...names.map((n) => [n, runs.map(([, f]) => f.frameworks.get(n))] as const), ['all', runs.map(([, f]) => total(f))] as const];
  const cell = (x: { schedules: number; ms: number } | undefined) =>
    x ? `${String(x.schedules).padStart(9)} ${clock(x.ms).padStart(8)} ${String(Math.round(x.schedules / (x.ms / 1000 || 1))).padStart(7)}` : ' '.repeat(26);
  const heads = runs.map(([label]) => `${label.padEnd(26)}`).join('   ');
  console.log(`${''.padEnd(10)} ${heads}${runs.length === 2 ? '   ratio (before/after)' : ''}`);
  console.log(`${'framework'.padEnd(10)} ${runs.map(() => `${'schedules'.padStart(9)} ${'explore'.padStart(8)} ${'sched/s'.padStart(7)}`).join('   ')}${runs.length === 2 ? `   ${'schedules'.padStart(9)} ${'explore'.padStart(8)}` : ''}`);
  for (const [name, xs] of rows) {
    const [a, b] = xs;
    const ratio = runs.length === 2 && a && b ? `   ${(a.schedules / (b.schedules || 1)).toFixed(1).padStart(8)}× ${(a.ms / (b.ms || 1)).toFixed(1).padStart(7)}×` : '';
    console.log(`${String(name).padEnd(10)} ${xs.map(cell).join('   ')}${ratio}`);
  }
  const walls = runs.map(([label, f]) => (f.wallMs === undefined ? undefined : `${label} ${clock(f.wallMs)}`)).filter(Boolean);
  if (walls.length) {
    const [a, b] = runs.map(([, f]) => f.wallMs);
    const ratio = a !== undefined && b !== undefined ? `, ${(a / b).toFixed(1)}× faster` : '';
    console.log(`\nwall time of the whole run: ${walls.join(', ')}${ratio}`);
  }
  console.log('(explore: the workers\' time in explorations, summed over units; sched/s: schedules per second of it)');
}

/** Runs `conformance run` in `dir` with the run options given, and returns its results file and wall time. */
async function runMatrix(label: string, dir: string, cache: string | undefined): Promise<[string, number]> {
  const out = await mkdtemp(join(tmpdir(), `ac-bench-${label.replace(/[^\w.-]+/g, '-')}-`));
  console.error(`${label}: pnpm conformance run --out ${out} ${args.join(' ')} (in ${dir})`);
  const start = Date.now();
  const run = spawnSync('pnpm', ['--silent', 'conformance', 'run', '--out', out, '--quiet', ...args], {
    cwd: dir,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: cache ? { ...process.env, APPROVAL_CONFORMANCE_CACHE: cache } : process.env,
  });
  const wall = Date.now() - start;
  console.error(`${label}: ${clock(wall)}, exit ${run.status}, results in ${out}`);
  if (run.status !== 0) fail(`the ${label} run failed (exit ${run.status})`);
  return [join(out, 'results.json'), wall];
}

const from = flag('--from');
const before = flag('--before');
const warmOnly = args.includes('--warm');
if (warmOnly) args.splice(args.indexOf('--warm'), 1);

if (from !== undefined) {
  const second = args[0] && !args[0].startsWith('--') ? args.shift() : undefined;
  const runs: [string, Figures][] = [['before', await figures(from)]];
  if (second) runs.push(['after', await figures(second)]);
  table(second ? runs : [[from, runs[0]![1]]]);
} else if (before !== undefined) {
  const root = spawnSync('git', ['rev-parse', '--show-toplevel'], { encoding: 'utf8' }).stdout.trim();
  const tree = await mkdtemp(join(tmpdir(), 'ac-bench-before-'));
  const git = spawnSync('git', ['worktree', 'add', '--detach', tree, before], { cwd: root, stdio: 'inherit' });
  if (git.status !== 0) fail(`could not check out ${before}`);
  try {
    const install = spawnSync('pnpm', ['install', '--frozen-lockfile', '--prefer-offline'], { cwd: tree, stdio: ['ignore', 'ignore', 'inherit'] });
    if (install.status !== 0) fail(`could not install ${before}'s workspace`);
    // Both on this machine's install cache, filled first by a quick pass (one small scenario) that installs every
    // version the matrix needs, so that neither run pays for installing.
    const scratch = await mkdtemp(join(tmpdir(), 'ac-bench-fill-'));
    const warm = spawnSync('pnpm', ['--silent', 'conformance', 'run', '--scenario', 'tamper', '--store', 'memory', '--out', scratch, '--quiet', ...args], {
      cwd: root,
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    await rm(scratch, { recursive: true, force: true });
    if (warm.status !== 0) fail('could not fill the install cache');
    const [beforeFile, beforeWall] = await runMatrix(`before (${before})`, tree, undefined);
    const [afterFile, afterWall] = await runMatrix('after (this tree)', root, undefined);
    table([
      [`before (${before})`, await figures(beforeFile, beforeWall)],
      ['after (this tree)', await figures(afterFile, afterWall)],
    ]);
  } finally {
    spawnSync('git', ['worktree', 'remove', '--force', tree], { cwd: root });
    await rm(tree, { recursive: true, force: true });
  }
} else {
  // An empty cache for the cold run, filled by it for the warm one; --warm keeps the machine's own cache.
  const cache = warmOnly ? undefined : await mkdtemp(join(tmpdir(), 'ac-bench-cache-'));
  for (const label of warmOnly ? ['warm'] : ['cold', 'warm']) {
    const [file, wall] = await runMatrix(label, process.cwd(), cache);
    if (label === 'warm') table([[label, await figures(file, wall)]]);
  }
}
