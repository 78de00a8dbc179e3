// The runner's speed on a matrix: the same run twice, first with an empty install cache (cold: every unpinned
// version installs) and then with that cache filled (warm), and the time per cell from the results' `ms`.
//
//   pnpm bench:matrix                      the default matrix (hours on 2 cores)
//   pnpm bench:matrix --framework ai       any `run` options narrow it
//   pnpm bench:matrix --warm               only the warm run, on this machine's install cache as it is
//   pnpm bench:matrix --from reports/results.json   only the per-cell times of a finished run
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';

interface Cell {
  framework: string;
  version: string;
  wiring: string;
  store: string;
  scenario: string;
  verdict: string;
  schedules: number;
  ms?: number;
}

const args = process.argv.slice(2);
const from = args.indexOf('--from');
const warmOnly = args.includes('--warm');
const runArgs = args.filter((a) => a !== '--warm');

function clock(ms: number) {
  const s = Math.round(ms / 1000);
  return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
}

/** Per framework version: units run, schedules, time in explorations, and the slowest unit. */
async function perCell(file: string) {
  const { cells } = JSON.parse(await readFile(file, 'utf8')) as { cells: Cell[] };
  // Cells of one unit (a scenario on a wiring and store) share its time: count each unit once.
  const units = new Map<string, Cell>();
  for (const c of cells) if (c.ms !== undefined) units.set(`${c.framework}@${c.version}/${c.wiring}/${c.store}/${c.scenario}`, c);
  const byTarget = new Map<string, Cell[]>();
  for (const [key, c] of units) {
    const target = key.split('/')[0]!;
    byTarget.set(target, [...(byTarget.get(target) ?? []), c]);
  }
  console.log(`${'version'.padEnd(22)} ${'cells'.padStart(6)} ${'units'.padStart(6)} ${'schedules'.padStart(10)} ${'explored'.padStart(9)} ${'ms/schedule'.padStart(11)}  slowest unit`);
  for (const [target, list] of byTarget) {
    const ms = list.reduce((a, c) => a + (c.ms ?? 0), 0);
    const schedules = list.reduce((a, c) => a + c.schedules, 0);
    const slowest = list.reduce((a, c) => ((c.ms ?? 0) > (a.ms ?? 0) ? c : a));
    const cellCount = cells.filter((c) => `${c.framework}@${c.version}` === target).length;
    console.log(
      `${target.padEnd(22)} ${String(cellCount).padStart(6)} ${String(list.length).padStart(6)} ${String(schedules).padStart(10)} ${clock(ms).padStart(9)} ${(schedules ? (ms / schedules).toFixed(2) : '-').padStart(11)}  ${slowest.wiring}/${slowest.store}/${slowest.scenario} ${clock(slowest.ms ?? 0)}`,
    );
  }
}

if (from >= 0) {
  await perCell(args[from + 1]!);
} else {
  // An empty cache for the cold run, filled by it for the warm one; --warm keeps the machine's own cache.
  const cache = warmOnly ? undefined : await mkdtemp(join(tmpdir(), 'ac-bench-cache-'));
  for (const label of warmOnly ? ['warm'] : ['cold', 'warm']) {
    const out = await mkdtemp(join(tmpdir(), `ac-bench-${label}-`));
    const start = Date.now();
    const run = spawnSync('pnpm', ['--silent', 'conformance', 'run', '--out', out, '--quiet', ...runArgs], {
      stdio: ['ignore', 'ignore', 'inherit'],
      env: cache ? { ...process.env, APPROVAL_CONFORMANCE_CACHE: cache } : process.env,
    });
    console.log(`${label} (cache ${label === 'cold' ? 'empty' : 'filled'}): ${clock(Date.now() - start)}, exit ${run.status}, results in ${out}`);
    if (label === 'warm') await perCell(join(out, 'results.json'));
  }
}
