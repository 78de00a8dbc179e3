// `audit`: a differential check of the explorer's reductions on real cells. It picks cells of the published results
// (every row's; audit/sources.ts says which files), seeded, weighted toward two turns at once and the newest reduction
// rules, at least one per framework; runs each reduced and then unreduced (every schedule to its end, up to a cap;
// past it, many sampled schedules too), and compares verdicts and shortest counterexample lengths. Each run goes
// through the runner's own workers, one framework version per worker.
import { mkdtemp, rm } from 'node:fs/promises';
import { writableFolder } from '../destination.js';
import { availableParallelism, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { DEFAULT_SCENARIOS, type ExploreOptions } from '@approval-conformance/core';
import { parseCommandArgs, positiveInteger } from '../args.js';
import { auditUnitId, selectUnits, type AuditUnit } from '../audit/select.js';
import { auditSources, leftOutStore, shown } from '../audit/sources.js';
import { compareUnit, type CellAudit } from '../audit/compare.js';
import { commandAdapters, expandSpecToTargets, frameworkNames, parseFrameworkSpec } from '../frameworks.js';
import { environment } from '../matrix/journal.js';
import { planTargets, runPool, type Target } from '../matrix/pool.js';
import { unitKey } from '../matrix/protocol.js';
import { publishedResults } from '../published.js';
import { writeResults, type ResultCell } from '../results.js';
import { RunFailure } from '../run-failure.js';
import { UsageError } from '../usage-error.js';
import { EXIT, exitCodesHelp } from '../exit-codes.js';
import type { Command, Io } from './command.js';

const DEFAULT_CELLS = 40;
const DEFAULT_CAP = 1500;
const DEFAULT_SAMPLES = 300;
const DEFAULT_TIMEOUT_S = 900;

const HELP = `Usage: approval-conformance audit [--cells N] [--seed S] [--framework SPECS] [--budget SECONDS]

Checks the explorer's reductions on real cells: picks N cells (a scenario on a
wiring and store of a framework version) of the published results, with seed S,
weighted toward two turns at once and the newest reduction rules, at least one
per framework whatever the seed (with fewer cells than frameworks, the seed
picks which); explores each with the reductions and then without them (every
schedule to its end), and compares every verdict and shortest counterexample
length. Where the unreduced run would go past --cap schedules, it stops there
and --samples random schedules are run too: nothing either finds may be missing
from the reduced result (a failure where it passed, a shorter counterexample).
A difference is printed with the schedule that shows it. The last line says
how many cells agreed.

Options:
  --cells N          how many cells (default ${DEFAULT_CELLS})
  --seed S           which cells: the same seed picks the same ones (default 1)
  --framework SPECS  only these frameworks or versions (NAME or NAME@VERSION,
                     comma-separated; default every framework published, or
                     with --adapter the adapter's frameworks)
  --budget SECONDS   start no new framework version after this long; cells
                     left are reported as not audited (default: no limit)
  --cap N            unreduced schedules per cell before sampling instead
                     (default ${DEFAULT_CAP})
  --samples N        random schedules per cell past the cap (default ${DEFAULT_SAMPLES})
  --jobs N           worker processes at once (default: ${availableParallelism()}, the cores)
  --timeout S        seconds one exploration may run (default ${DEFAULT_TIMEOUT_S})
  --out DIR          keep the three runs' results here (reduced.json,
                     unreduced.json, sampled.json), to replay what differed
                     (default: a temporary folder, named when something differs)
  --quiet            no progress on stderr
  -h, --help         show this help

Examples:
  approval-conformance audit --cells 40 --seed 1
  approval-conformance audit --framework ai@7.0.185 --cells 6 --cap 600 --out audit

The cells come from every results.json under reports/ (the published results)
whose run an audit re-checks as it was made: run to its end, every schedule,
the default reductions, no --max-schedules, every property, the default
scenarios (narrowed by framework, wiring or store is fine). Today those are
reports/results.json (the default matrix) and the rows published apart in
reports/<framework>/; the three-tabs runs (capped, bound, unfinished, or an opt-in
scenario) and reports/postgres/ are not, and no cell on the postgres store is
drawn (it needs a server, and a seed picks the same cells on any machine) but a
framework's that runs only on PostgreSQL (dbos), which is given one: the
server in APPROVAL_CONFORMANCE_POSTGRES, or in the suite's repository its
throwaway one (scripts/postgres.sh). The
first line of progress names the files. Where a unit is in two files, the
first counts (reports/results.json). A version in none of them is loaded
first to list its cells.

${exitCodesHelp('a cell differed (or could not be checked)', 'a version would not install or import')}`;

/** The units of the published results (or of planned versions), n/a ones left out. */
export async function population(specs: readonly string[] | undefined, jobs: number, log: (line: string) => void): Promise<AuditUnit[]> {
  const file = await publishedResults();
  const sources = await auditSources(file === undefined ? undefined : dirname(file));
  if (sources.drawn.length > 0) {
    const left = sources.left.map((l) => `${shown(l.file)}: ${l.why}`);
    log(`Drawing cells from ${sources.drawn.map(shown).join(', ')}${left.length > 0 ? ` (not from ${left.join('; ')})` : ''}.`);
  }
  let chosen = [...sources.units];
  if (specs) {
    const wanted: Target[] = [];
    for (const text of specs) {
      const spec = parseFrameworkSpec(text);
      for (const { version, source } of await expandSpecToTargets(spec, log)) {
        wanted.push({ framework: spec.name, version, spec: text, ...(source ? { source } : {}) });
      }
    }
    const has = (t: Target) => chosen.some((u) => u.framework === t.framework && u.version === t.version);
    const missing = wanted.filter((t) => !has(t));
    chosen = chosen.filter((u) => wanted.some((t) => t.framework === u.framework && t.version === u.version));
    if (missing.length > 0) {
      log(`Listing the cells of ${missing.map((t) => `${t.framework}@${t.version}`).join(', ')} (not in the published results)...`);
      const plans = await planTargets(missing, { jobs, timeoutMs: undefined, filters: { scenarios: [...DEFAULT_SCENARIOS] }, options: {}, strictFilters: false });
      for (const t of missing) {
        const plan = plans.get(`${t.framework}@${t.version}`)!;
        if ('error' in plan) throw new RunFailure(`${t.framework}@${t.version} could not be loaded to list its cells: ${plan.error}`);
        // What the version cannot run has nothing to compare: its cells read n/a either way. A store that needs a
        // server is left out here too, so that a seed picks the same cells with one or without.
        for (const u of plan.units.filter((unit) => !unit.notApplicable && !leftOutStore(t.framework, unit.store))) chosen.push({ framework: t.framework, version: t.version, wiring: u.wiring, store: u.store, scenario: u.scenario });
      }
    }
  }
  // The newest version of each framework, for the weights.
  const newest = new Map<string, string>();
  for (const u of chosen) {
    const [a, b] = [newest.get(u.framework), u.version];
    if (a === undefined || b.localeCompare(a, 'en', { numeric: true }) > 0) newest.set(u.framework, b);
  }
  return chosen.map((u) => ({ ...u, newest: newest.get(u.framework) === u.version }));
}

/** Runs `units` of one framework version with `options`, one worker, and returns their cells. */
async function runUnits(
  target: Target,
  units: readonly AuditUnit[],
  options: ExploreOptions,
  timeoutS: number,
  log: (line: string) => void,
  unloaded: string[],
): Promise<ResultCell[]> {
  const cells: ResultCell[] = [];
  await runPool(
    [{ ...target, units: units.map(unitKey) }],
    {
      jobs: 1,
      timeoutMs: timeoutS * 1000,
      filters: { scenarios: [...new Set(units.map((u) => u.scenario))] },
      options,
      done: new Map(),
      strictFilters: false,
    },
    {
      plan() {},
      start() {},
      async cells(_target, found) {
        cells.push(...found);
      },
      failed(_target, reason) {
        unloaded.push(`${target.framework}@${target.version}: ${reason}`);
      },
      log(_target, line) {
        log(`${target.framework}@${target.version}: ${line}`);
      },
    },
  );
  return cells;
}

const cellsOf = (cells: readonly ResultCell[], u: AuditUnit) =>
  cells.filter((c) => c.framework === u.framework && c.version === u.version && c.wiring === u.wiring && c.store === u.store && c.scenario === u.scenario);

export const auditCommand: Command = {
  name: 'audit',
  summary: 'check the reductions on sampled cells: reduced against unreduced',
  help: HELP,
  async run(argv, io) {
    const { values, positionals } = parseCommandArgs('audit', argv, {
      cells: { type: 'string' },
      seed: { type: 'string' },
      framework: { type: 'string' },
      budget: { type: 'string' },
      cap: { type: 'string' },
      samples: { type: 'string' },
      jobs: { type: 'string' },
      timeout: { type: 'string' },
      out: { type: 'string' },
      quiet: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    });
    if (values.help) {
      io.out(HELP);
      return EXIT.done;
    }
    if (positionals.length > 0) throw new UsageError(`audit takes no arguments, got '${positionals[0]}'.`);
    const count = positiveInteger('--cells', values.cells, DEFAULT_CELLS);
    const seed = positiveInteger('--seed', values.seed, 1, 0);
    const budgetS = values.budget === undefined ? undefined : positiveInteger('--budget', values.budget, 0, 1, 'seconds');
    const cap = positiveInteger('--cap', values.cap, DEFAULT_CAP);
    const samples = positiveInteger('--samples', values.samples, DEFAULT_SAMPLES);
    const jobs = positiveInteger('--jobs', values.jobs, availableParallelism());
    const timeoutS = positiveInteger('--timeout', values.timeout, DEFAULT_TIMEOUT_S, 1, 'seconds');
    const quiet = values.quiet ?? false;
    const log = (line: string) => void (quiet || io.err(`${line}\n`));
    // With --adapter and no --framework, the adapters' frameworks: what a maintainer of one audits.
    const specs = values.framework?.split(',').map((s) => s.trim()).filter(Boolean) ?? (commandAdapters().length > 0 ? [...commandAdapters()] : undefined);
    if (specs?.length === 0) throw new UsageError(`--framework needs at least one of ${frameworkNames().join(', ')}.`);

    const all = await population(specs, jobs, log);
    if (all.length === 0) throw new UsageError('there are no cells to audit: no published results file (reports/**/results.json, of the default run) holds the frameworks asked for.');
    const chosen = selectUnits(all, count, seed);
    const outDir = values.out !== undefined ? await writableFolder(values.out) : await mkdtemp(join(tmpdir(), 'approval-conformance-audit-'));
    log(`Auditing ${chosen.length} of ${all.length} cells (seed ${seed}), ${jobs} at a time: each reduced, then unreduced up to ${cap} schedules, then ${samples} sampled where that is not all.`);

    // One group per framework version, in the order their first cell was chosen.
    const groups = new Map<string, AuditUnit[]>();
    for (const u of chosen) groups.set(`${u.framework}@${u.version}`, [...(groups.get(`${u.framework}@${u.version}`) ?? []), u]);
    const runs = { reduced: [] as ResultCell[], unreduced: [] as ResultCell[], sampled: [] as ResultCell[] };
    const audits: CellAudit[] = [];
    const skipped: AuditUnit[] = [];
    const unloaded: string[] = [];
    const started = performance.now();
    const env = await environment();
    const save = async () => {
      for (const [name, cells] of Object.entries(runs)) await writeResults(join(outDir, `${name}.json`), { environment: env, cells });
    };

    const auditGroup = async (key: string, units: AuditUnit[]) => {
      const at = key.lastIndexOf('@');
      const target: Target = { framework: key.slice(0, at), version: key.slice(at + 1), spec: key };
      const run = (list: readonly AuditUnit[], options: ExploreOptions) => runUnits(target, list, options, timeoutS, log, unloaded);
      const reduced = await run(units, { mode: 'exhaustive', reduce: true });
      if (unloaded.some((line) => line.startsWith(`${key}:`))) return;
      const unreduced = await run(units, { mode: 'exhaustive', reduce: false, maxSchedules: cap });
      const unfinished = units.filter((u) => !cellsOf(unreduced, u).every((c) => c.exhaustive));
      const sampled = unfinished.length > 0 ? await run(unfinished, { mode: 'sampled', samples, seed }) : [];
      runs.reduced.push(...reduced);
      runs.unreduced.push(...unreduced);
      runs.sampled.push(...sampled);
      await save();
      for (const u of units) {
        const audit = compareUnit(auditUnitId(u), cellsOf(reduced, u), cellsOf(unreduced, u), cellsOf(sampled, u));
        audits.push(audit);
        log(`${audit.agrees ? 'agrees' : 'DIFFERS'}  ${audit.unit}: ${audit.how}`);
        for (const line of audit.differences) log(`  ${line}`);
      }
    };

    const queue = [...groups];
    const lanes = Array.from({ length: Math.max(1, Math.min(jobs, queue.length)) }, async () => {
      for (let next = queue.shift(); next; next = queue.shift()) {
        if (budgetS !== undefined && (performance.now() - started) / 1000 >= budgetS) {
          skipped.push(...next[1]);
          continue;
        }
        await auditGroup(...next);
      }
    });
    await Promise.all(lanes);

    if (unloaded.length > 0) {
      io.err(`approval-conformance: could not audit ${unloaded.join('; ')}.\n`);
      return EXIT.incomplete;
    }
    const code = report(io, audits, skipped, outDir, values.out !== undefined, seed, budgetS);
    // A temporary folder is kept only when it holds a difference to replay.
    if (values.out === undefined && code === EXIT.done) await rm(outDir, { recursive: true, force: true });
    return code;
  },
};

function report(io: Io, audits: readonly CellAudit[], skipped: readonly AuditUnit[], outDir: string, kept: boolean, seed: number, budgetS: number | undefined): number {
  const differ = audits.filter((a) => !a.agrees);
  const lines: string[] = [];
  for (const a of differ) {
    lines.push(`${a.unit} differs (${a.how}):`, ...a.differences.map((d) => `  ${d}`));
  }
  if (differ.length > 0) {
    lines.push('', `The three runs are in ${outDir} (reduced.json, unreduced.json, sampled.json): replay a cell with`, `  approval-conformance replay ${join(outDir, 'unreduced.json')} --cell ID`);
  } else if (kept) {
    lines.push(`The three runs are in ${outDir}.`);
  }
  if (skipped.length > 0) {
    lines.push(`${skipped.length} cell${skipped.length === 1 ? ' was' : 's were'} not audited: the budget of ${budgetS} s ran out (${skipped.map(auditUnitId).join(', ')}).`);
  }
  const agreed = audits.length - differ.length;
  lines.push(`${agreed} of ${audits.length} audited cells agreed (seed ${seed})${differ.length > 0 ? `; ${differ.length} differed` : ''}.`);
  io.out(`${lines.join('\n')}\n`);
  return differ.length > 0 ? EXIT.gate : EXIT.done;
}

