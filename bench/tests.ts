// The test files ranked by time: each run alone, or read off a whole run's report.
//
//   pnpm bench:tests                          every test file alone (`vitest run FILE`, one after another), slowest
//                                             first: its wall time, and the CPU time of it and every process it started
//                                             (about 12 minutes on 2 cores)
//   pnpm bench:tests reductions calibration   only the files whose path contains one of these words
//   pnpm bench:tests --from REPORT [AFTER]    the files' times in a whole run's vitest JSON report, in the run's own
//                                             contention (VITEST_JSON_REPORT=REPORT pnpm test writes one); with two,
//                                             before and after side by side
//   --top N                                   the N slowest only (default: all)
//
// Alone is what a file costs; in the whole run a file also waits for the cores the others use, so the sum of the
// whole run's file times is more than the run's wall time times its workers only when files contend.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { failer, takeFlag } from './args.js';

interface Row {
  readonly file: string;
  readonly wallS: number;
  readonly cpuS?: number;
  readonly ok: boolean;
}

const args = process.argv.slice(2);
const fail = failer('tests');
const flag = (name: string) => takeFlag(args, name, fail);

const root = spawnSync('git', ['rev-parse', '--show-toplevel'], { encoding: 'utf8' }).stdout.trim() || process.cwd();
const top = Number(flag('--top') ?? Infinity);
if (!(top > 0)) fail('--top needs a positive number');
const from = flag('--from');

/** A whole run's wall time, for the rows read off its report. */
const runs = new Map<Row[], number>();

/** A vitest JSON report's files: each file's time from its first test's start to its last one's end. */
function fromReport(path: string): Row[] {
  let report: { testResults?: { name: string; startTime: number; endTime: number; status: string }[] };
  try {
    report = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    fail(`cannot read ${path} as a vitest JSON report (${(error as Error).message}); write one with VITEST_JSON_REPORT=${path} pnpm test`);
  }
  if (!Array.isArray(report.testResults)) fail(`${path} is not a vitest JSON report (no testResults)`);
  // Named from packages/ on, so that reports written in two clones (CI's, say) line up.
  const rows = report.testResults.map((t) => ({ file: relative(root, t.name).replace(/^(\.\.\/)+.*?\/(?=packages\/)/, ''), wallS: (t.endTime - t.startTime) / 1000, ok: t.status === 'passed' }));
  const ends = report.testResults.flatMap((t) => [t.startTime, t.endTime]);
  runs.set(rows, (Math.max(...ends) - Math.min(...ends)) / 1000);
  return rows;
}

/** Every test file of the workspace, as vitest lists them. */
function testFiles(): string[] {
  const listed = spawnSync('pnpm', ['--silent', 'vitest', 'list', '--filesOnly', '--json'], { cwd: root, encoding: 'utf8', maxBuffer: 1 << 26 });
  if (listed.status !== 0) fail(`vitest list failed:\n${listed.stderr}`);
  const files = (JSON.parse(listed.stdout) as { file: string }[]).map((f) => relative(root, f.file));
  return [...new Set(files)].sort();
}

/** One file alone: wall and CPU time (user + system, its processes included) from /usr/bin/time. */
function alone(file: string): Row {
  const dir = mkdtempSync(join(tmpdir(), 'ac-bench-tests-'));
  const times = join(dir, 'time');
  const run = spawnSync('/usr/bin/time', ['-f', '%e %U %S', '-o', times, 'pnpm', '--silent', 'vitest', 'run', file], { cwd: root, stdio: 'ignore' });
  const [wall, user, system] = readFileSync(times, 'utf8').trim().split('\n').pop()!.split(' ').map(Number);
  rmSync(dir, { recursive: true, force: true });
  return { file, wallS: wall!, cpuS: user! + system!, ok: run.status === 0 };
}

function print(columns: readonly [string, Row[]][]) {
  const byFile = columns.map(([, rows]) => new Map(rows.map((r) => [r.file, r])));
  const files = [...byFile[0]!.keys()].sort((a, b) => byFile[0]!.get(b)!.wallS - byFile[0]!.get(a)!.wallS).slice(0, top);
  const showCpu = columns.some(([, rows]) => rows.some((r) => r.cpuS !== undefined));
  const head = columns.map(([label]) => `${label.slice(-14).padStart(14)}${showCpu ? '      cpu' : ''}`).join('');
  console.log(`${head}${columns.length === 2 ? '   ratio' : ''}   file`);
  for (const file of files) {
    const cells = byFile.map((m) => {
      const r = m.get(file);
      if (!r) return ' '.repeat(showCpu ? 23 : 14);
      return `${`${r.wallS.toFixed(1)}s${r.ok ? '' : '!'}`.padStart(14)}${showCpu ? `${r.cpuS === undefined ? '' : `${r.cpuS.toFixed(1)}s`}`.padStart(9) : ''}`;
    });
    const [a, b] = byFile.map((m) => m.get(file)?.wallS);
    const ratio = columns.length === 2 ? (a !== undefined && b ? `${(a / b).toFixed(1)}×` : '').padStart(8) : '';
    console.log(`${cells.join('')}${ratio}   ${file}`);
  }
  for (const [label, rows] of columns) {
    const run = runs.get(rows);
    const wall = rows.reduce((s, r) => s + r.wallS, 0);
    const cpu = rows.reduce((s, r) => s + (r.cpuS ?? 0), 0);
    const failed = rows.filter((r) => !r.ok).length;
    console.log(`${label}: ${rows.length} files, ${wall.toFixed(0)} s summed${cpu ? `, ${cpu.toFixed(0)} s of CPU` : ''}${failed ? `, ${failed} failed (!)` : ''}${run ? `; the run took ${run.toFixed(0)} s from its first file's start to its last one's end` : ''}`);
  }
}

if (from !== undefined) {
  const after = args.find((a) => !a.startsWith('--'));
  print(after ? [['before', fromReport(from)], ['after', fromReport(after)]] : [[from, fromReport(from)]]);
} else {
  const words = args.filter((a) => !a.startsWith('--'));
  const files = testFiles().filter((f) => words.length === 0 || words.some((w) => f.includes(w)));
  if (files.length === 0) fail(`no test file matches ${words.join(', ')}`);
  const rows: Row[] = [];
  for (const [i, file] of files.entries()) {
    const row = alone(file);
    rows.push(row);
    console.error(`[${i + 1}/${files.length}] ${row.wallS.toFixed(1)} s, ${row.cpuS!.toFixed(1)} s of CPU  ${file}${row.ok ? '' : ' (failed)'}`);
  }
  print([['alone', rows]]);
}
