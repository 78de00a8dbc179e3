// `run`: the conformance runner. It expands the frameworks asked for (or the published default matrix) into exact
// versions, runs each version's cells in a worker process of its own, writes every finished cell at once, and ends
// with the tables (one version) or a summary (a matrix), plus reports when asked.
import { rmSync } from 'node:fs';
import { appendFile, readFile, stat, writeFile } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { DEFAULT_REDUCTIONS, PROPERTY_IDS, reductions, DEFAULT_SCENARIOS, SCENARIOS, type ExploreOptions, type PropertyId, type Reductions, type ScenarioId } from '@approval-conformance/core';
import { parseCommandArgs, positiveInteger } from '../args.js';
import { commandAdapters, defaultScope, expandSpecToTargets, framework, frameworkNames, frameworks as allFrameworks, matrixFrameworkNames, parseFrameworkSpec } from '../frameworks.js';
import { checkpointsFolder, removeEmptyFolders, removeFinished, unfinishedWithCheckpoint } from '../matrix/checkpoints.js';
import { Journal } from '../matrix/journal.js';
import { existing, publishedResults } from '../published.js';
import { loadFailedCells, planTargets, runPool, type Target } from '../matrix/pool.js';
import { needsServer, server } from '../server.js';
import { assignShards, parseShard, planDigest, unitsOf, type Shard } from '../matrix/shard.js';
import { unitProperties } from '../matrix/units.js';
import { CostEstimate } from '../matrix/estimate.js';
import { Progress } from '../matrix/progress.js';
import { keyParts, unitDigest, type KeyParts } from '../matrix/keys.js';
import { reuseFor } from '../matrix/reuse.js';
import { reportsFolder, writeReports } from '../render/reports.js';
import { writableFolder } from '../destination.js';
import { invokedAs } from '../invoked-as.js';
import { staleWarnings, triageForReports } from '../triage.js';
import { junitXml } from '../render/junit.js';
import { renderTarget, renderTargetSummary } from '../render/run-tables.js';
import { stepSummary } from '../render/step-summary.js';
import { textTable } from '../render/table.js';
import { shortVerdict, verdictCounts, VERDICTS } from '../render/verdict.js';
import { readResults, type ResultCell, type ResultTarget, type RunOptions, type ShardInfo } from '../results.js';
import { UsageError } from '../usage-error.js';
import { exitCodesHelp, EXIT } from '../exit-codes.js';
import type { Command, Io } from './command.js';

const DEFAULT_TIMEOUT_S = 1800;

const HELP = `Usage: approval-conformance run [--framework SPEC[,SPEC...]] [options]

Explores every interleaving of each scenario on each wiring and store of each
framework version, and prints a table of verdicts per property:
  pass (N schedules)   every schedule within the bound explored; the property held
  pass (sampled N)     N random schedules held; not a proof
  pass (partial N)     stopped at --max-schedules after N schedules; not a proof
  fail (K steps)       the shortest schedule that breaks it (see --json, replay)
  fail (K steps; partial N)  a real failure from a cut-short run; maybe not the shortest
  allowed              broken only inside a gap the scenario admits on purpose
  n/a, error, timeout  not run, or could not be run; never a pass

With no --framework, runs the published default matrix (every framework over
its default versions) and writes reports/; with --adapter, the adapter's
frameworks over their default versions instead, and no reports unless --out. Each version runs in a worker
process of its own: a version that will not install, a crash or a hang becomes
error or timeout cells, and the run goes on. A framework's default versions
run its guarded wirings (and some stores, such as Mastra's libsql) only on the
newest of them; --wiring or --store naming them runs them on every version.

Options:
  --framework SPECS  comma-separated NAME or NAME@VERSION. Known: ${frameworkNames().join(', ')},
                     and those of the adapters --adapter loads
                     NAME alone is its default versions; VERSION is exact,
                     latest, a range (ai@6, ai@^6.0: the last release
                     of each minor line in it), or file:PATH, a local build
                     (its package folder). Pinned versions load without
                     installing; others install once into a cache, scripts off
  --wiring LIST      comma-separated wirings (default: all each framework has)
  --store LIST       comma-separated stores (default: all each framework has)
  --scenario LIST    comma-separated scenarios (default: all but three-tabs,
                     which runs only when named)
  --property LIST    comma-separated properties (default: each scenario's own)
  --json FILE        write results JSON (rewritten after every unit)
  --out DIR          write reports: DIR/results.json, Markdown (README.md, a
                     page per framework) and HTML (index.html), the stories,
                     and reproductions (default reports/ for the default
                     matrix, none otherwise)
  --metadata DIR     triage metadata for the reports: <framework>.yml files
                     linking failing cells to the framework's own docs or
                     issues (default: DIR/metadata of --out, when it exists)
  --resume           continue the run in --json FILE or DIR/results.json:
                     finished cells are kept, not run again, and a unit
                     that was stopped (or timed out, or whose worker ran
                     out of memory) goes on from its last checkpoint (saved
                     about once a minute; not with --reduce bound, whose
                     search may start over and is not saved). With the
                     --framework it was run with, or some of its versions;
                     another version is refused unless --extend is given
  --reuse RESULTS    copy each unit whose key matches one in RESULTS instead of
                     running it: the key is a digest of everything that can
                     change its verdict (the suite's code and lockfile, the
                     adapter, the version's installed tree, Node, the unit and
                     the options). Says how many were copied and why the rest
                     ran. Every run records the keys in its results
  --extend           with --resume: also run versions the results did not
                     plan, or wirings, stores and scenarios their options
                     left out (give the old lists and what to add), adding
                     the cells to the same file (another framework's row,
                     or a wiring, in a published report, say)
  --shard I/N        run only this machine's share of the units (1 ≤ I ≤ N),
                     split the same way on every machine, balanced by what
                     each unit cost in the published results; needs --json
                     or --out. Combine the N results with 'merge'
  --jobs N           worker processes at once (default: ${availableParallelism()}, the cores)
  --timeout S        seconds one scenario may run on a wiring and store before
                     it is stopped and reads timeout (default ${DEFAULT_TIMEOUT_S});
                     installing and importing a version may take as long,
                     and at least 300
  --postgres URL     a PostgreSQL server for the postgres store (also read from
                     APPROVAL_CONFORMANCE_POSTGRES); the store runs only with one
  --summary FILE     write a short Markdown table of the run (GitHub-flavoured);
                     also appended to $GITHUB_STEP_SUMMARY when that is set
  --junit FILE       write JUnit XML: a testcase per cell (fail: a failure
                     with its story; error, timeout: an error; n/a: skipped)
  --fail-on LIST     comma-separated: fail (exit 1 when a cell fails), error
                     (exit 3 when a cell is error or timeout); by default the
                     exit code is 0 once the run completed
  --sampled N        sample N random schedules per cell instead of exploring all
  --seed N           first seed for --sampled (default 1)
  --max-schedules N  stop exhaustive exploration after N schedules (the verdict
                     then says it was not exhaustive)
  --reduce LIST      only these reductions (comma-separated; default all
                     but bound):
                       commute      run one order of releases that commute
                       source-sets  start only the turns a race needs
                                    (source-set DPOR; needs commute)
                       bound        stop runs that can show no shorter
                                    counterexample (branch and bound)
                       symmetry     of turns that are the same but for their
                                    names and have not moved, release only
                                    the earliest
                     none, or --no-reduce: every schedule to its end. Every
                     choice gives the same verdicts and shortest lengths;
                     only the time and the schedule counts differ
  --no-check-contents
                     leave out reading each world's state around every
                     release. By default every run reads it, as tests and
                     'audit' do, and a release that changed a key its gate
                     did not declare written makes the cell error; leaving
                     it out saves about 9% of the default matrix's time
                     (the declared events and store calls are checked either
                     way). The results
                     and the reports say which was used. --check-contents,
                     the default, is still accepted
  --tables           for one framework version, print every scenario's table
                     (wiring × store by property) rather than the summary
                     by wiring
  --quiet            no progress on stderr
  --verbose          also a line on stderr as each unit ends: its schedules,
                     time and verdicts
  -h, --help         show this help

Examples:
  approval-conformance run                                   # the default matrix, into reports/
  approval-conformance run --framework ai@7.0.185 --scenario double-resume
  approval-conformance run --framework ai@7 --out my-reports # the last of each 7.x minor line
  approval-conformance run --json results.json --resume      # go on after Ctrl-C
  approval-conformance run --reuse reports/results.json      # rerun only what changed since reports/
  approval-conformance run --framework ai@latest --junit junit.xml --fail-on fail,error

${exitCodesHelp('--fail-on fail, and a cell failed', 'a version would not install or import; with --fail-on error,\n     a cell is error or timeout')}`;

/** A path as the user would type it: relative to where they are, when it is below. */
const shown = (file: string) => (file.startsWith(`${process.cwd()}/`) ? file.slice(process.cwd().length + 1) : file);

/**
 * Whether `dir` holds the reports of the results last written at `updated`: their index says so (each report's
 * header gives the time of its last cell). A folder without them, or with another run's, gets them written.
 */
async function reportsOf(dir: string, updated: string | undefined): Promise<boolean> {
  if (updated === undefined) return false;
  const index = await readFile(join(dir, 'README.md'), 'utf8').catch(() => '');
  return index.includes(`last cell written ${updated}.`) && (await stat(join(dir, 'index.html')).catch(() => undefined)) !== undefined;
}

/** The command that resumes this run: the same arguments, and --resume. */
function resumeCommand(argv: readonly string[]): string {
  const quote = (a: string) => (/^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`);
  const prefix = `${invokedAs()} run`;
  return [prefix, ...argv.map(quote), ...(argv.includes('--resume') ? [] : ['--resume'])].join(' ');
}

/** What a resumed run keeps and what it has left, from the results it continues. */
function resumeLine(journal: Journal, targets: readonly Target[], todo: readonly Target[], file: string): string {
  const done = journal.done();
  const keyOf = (t: { framework: string; version: string }) => `${t.framework}@${t.version}`;
  const kept = targets.reduce((n, t) => n + (done.get(keyOf(t))?.size ?? 0), 0);
  const recorded = new Map(journal.targets().map((t) => [keyOf(t), t.units]));
  let left = 0;
  let unknown = 0;
  for (const t of todo) {
    const total = recorded.get(keyOf(t));
    if (total === undefined) unknown++;
    else left += Math.max(0, total - (done.get(keyOf(t))?.size ?? 0));
  }
  const rest = unknown > 0 ? `, and ${unknown} version${unknown === 1 ? '' : 's'} not started yet (counted as they load)` : '';
  if (journal.widened) return `Resuming ${shown(file)}: keeps ${kept} finished unit${kept === 1 ? '' : 's'}; ${left} left of the units it planned${rest}, and those of the wirings, stores or scenarios this run adds (counted as they load).`;
  return `Resuming ${shown(file)}: keeps ${kept} finished unit${kept === 1 ? '' : 's'}; ${left} left in the versions begun${rest}.`;
}

function list(flag: string, value: string | undefined, known?: readonly string[]): string[] | undefined {
  if (value === undefined) return undefined;
  const items = value.split(',').map((s) => s.trim()).filter(Boolean);
  if (items.length === 0) throw new UsageError(`${flag} needs at least one value${known ? `; choose from ${known.join(', ')}` : ''}.`);
  for (const item of items) {
    if (known && !known.includes(item)) throw new UsageError(`unknown ${flag.slice(2)} '${item}'; choose from ${known.join(', ')}.`);
  }
  return items;
}

const FAIL_ON = ['fail', 'error'] as const;

export const runCommand: Command = {
  name: 'run',
  summary: 'run the conformance matrix (or one framework) and print the verdicts',
  help: HELP,
  async run(argv, io) {
    const { values, positionals } = parseCommandArgs('run', argv, {
      framework: { type: 'string' },
      wiring: { type: 'string' },
      store: { type: 'string' },
      scenario: { type: 'string' },
      property: { type: 'string' },
      json: { type: 'string' },
      out: { type: 'string' },
      resume: { type: 'boolean' },
      extend: { type: 'boolean' },
      reuse: { type: 'string' },
      shard: { type: 'string' },
      jobs: { type: 'string' },
      timeout: { type: 'string' },
      'fail-on': { type: 'string' },
      summary: { type: 'string' },
      junit: { type: 'string' },
      postgres: { type: 'string' },
      sampled: { type: 'string' },
      seed: { type: 'string' },
      'max-schedules': { type: 'string' },
      reduce: { type: 'string' },
      'no-reduce': { type: 'boolean' },
      'check-contents': { type: 'boolean' },
      'no-check-contents': { type: 'boolean' },
      metadata: { type: 'string' },
      quiet: { type: 'boolean' },
      tables: { type: 'boolean' },
      verbose: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    });
    if (values.help) {
      io.out(HELP);
      return EXIT.done;
    }
    if (positionals.length > 0) throw new UsageError(`run takes no arguments, got '${positionals[0]}'.`);

    const quiet = values.quiet ?? false;
    if (quiet && values.verbose) throw new UsageError(`--quiet and --verbose ask for opposite things; give one.`);
    const log = (line: string) => void (quiet || io.err(`${line}\n`));
    const askedScenarios = list('--scenario', values.scenario, [...SCENARIOS.keys()]) as ScenarioId[] | undefined;
    const scenarios = askedScenarios ?? [...DEFAULT_SCENARIOS];
    const properties = list('--property', values.property, PROPERTY_IDS) as PropertyId[] | undefined;
    const options: ExploreOptions = {
      ...(values.sampled === undefined
        ? { mode: 'exhaustive' as const }
        : { mode: 'sampled' as const, samples: positiveInteger('--sampled', values.sampled, 1000) }),
      seed: positiveInteger('--seed', values.seed, 1, 0),
      ...(values['max-schedules'] === undefined
        ? {}
        : { maxSchedules: positiveInteger('--max-schedules', values['max-schedules'], 1) }),
      reduce: reductionsArg(values.reduce, values['no-reduce']),
      checkContents: contentsArg(values['check-contents'], values['no-check-contents']),
    };
    const jobs = positiveInteger('--jobs', values.jobs, availableParallelism(), 1);
    const timeoutS = positiveInteger('--timeout', values.timeout, DEFAULT_TIMEOUT_S, 1, 'seconds');
    const failOn = (list('--fail-on', values['fail-on'], FAIL_ON) ?? []) as (typeof FAIL_ON)[number][];

    // What to run: the asked-for specs, or every framework's defaults.
    // With --adapter and no --framework, the adapters' frameworks instead: what a maintainer of one runs.
    const adapted = values.framework === undefined ? commandAdapters() : [];
    const matrix = values.framework === undefined && adapted.length === 0;
    const specs = matrix ? matrixFrameworkNames() : adapted.length > 0 ? [...adapted] : (list('--framework', values.framework) ?? []);
    let targets: Target[] = [];
    /** Specs that named no version: their framework's default versions, by framework. */
    const defaults = new Map<string, string[]>();
    for (const text of specs) {
      const spec = parseFrameworkSpec(text);
      const expanded = await expandSpecToTargets(spec, log);
      if (spec.version === undefined) defaults.set(spec.name, expanded.map((t) => t.version));
      for (const { version, source } of expanded) {
        if (!targets.some((t) => t.framework === spec.name && t.version === version)) {
          targets.push({ framework: spec.name, version, spec: text, ...(source === undefined ? {} : { source }) });
        }
      }
    }

    // The PostgreSQL server for the postgres store; worker processes inherit it.
    if (values.postgres !== undefined) process.env['APPROVAL_CONFORMANCE_POSTGRES'] = values.postgres;
    if (values.store?.split(',').map((x) => x.trim()).includes('postgres') && !process.env['APPROVAL_CONFORMANCE_POSTGRES']) {
      throw new UsageError('--store postgres needs a server: pass --postgres URL (or set APPROVAL_CONFORMANCE_POSTGRES); in the suite repository, bash scripts/postgres.sh start gives a throwaway one.');
    }

    // A framework named that runs only on PostgreSQL needs a server before anything runs: the user's, or in the suite's
    // repository the throwaway one its tests use. In the default matrix, one that cannot have one reads error.
    if (!matrix) {
      for (const name of new Set(targets.map((t) => t.framework))) {
        if (!needsServer(framework(name))) continue;
        const found = await server();
        if ('missing' in found) throw new UsageError(`${name} keeps everything in PostgreSQL, and ${found.missing}.`);
      }
    }

    // Filters are checked against every wiring and store the chosen frameworks have, before anything runs.
    const frameworks = [...new Set(targets.map((t) => t.framework))];
    const shapes = await Promise.all(frameworks.map((name) => framework(name).shape()));
    // A resumed run gives the lists its results were run with, which may name other frameworks' wirings (it goes on
    // with some of the versions): there every framework's names are known.
    const known = values.resume ? [...shapes, ...(await Promise.all(allFrameworks().filter((f) => !frameworks.includes(f.name)).map((f) => f.shape())))] : shapes;
    const wirings = list('--wiring', values.wiring, [...new Set(known.flatMap((s) => s.wirings))]);
    const stores = list('--store', values.store, [...new Set(known.flatMap((s) => s.stores))]);
    // A framework's default versions leave what it runs only on the newest (`newestOnly`) to the newest.
    targets = targets.map((t) => {
      const versions = defaults.get(t.framework);
      const shape = shapes[frameworks.indexOf(t.framework)]!;
      const only = versions && defaultScope(framework(t.framework), t.version, versions, shape, { wirings, stores }, askedScenarios ? undefined : scenarios);
      return only ? { ...t, only } : t;
    });

    const shard = values.shard === undefined ? undefined : parseShard(values.shard);
    // One shard's results are not the published matrix: they go where they are asked to, never into reports/.
    const outDir = values.out !== undefined ? resolve(values.out) : matrix && !shard ? resolve('reports') : undefined;
    const jsonFile = values.json !== undefined ? resolve(values.json) : outDir ? join(outDir, 'results.json') : undefined;
    if (values.resume && jsonFile === undefined) throw new UsageError('--resume needs the results to continue: give --json FILE or --out DIR.');
    if (values.json !== undefined && jsonFile !== undefined) {
      if ((await stat(jsonFile).catch(() => undefined))?.isDirectory()) throw new UsageError(`--json ${values.json} is a folder; name a file (for example ${join(values.json, 'results.json')}).`);
      await writableFolder(dirname(jsonFile), `the folder of --json ${values.json}`);
    }
    if (values.extend && !values.resume) throw new UsageError('--extend adds versions, wirings, stores or scenarios to the results a run continues: use it with --resume.');
    if (shard && jsonFile === undefined) {
      throw new UsageError(`--shard ${shard.index}/${shard.count} needs somewhere to write its results for 'merge': give --json FILE or --out DIR.`);
    }
    if (outDir) {
      // Checked before anything runs or is written: a run must not end unable to write its reports.
      await reportsFolder(outDir);
    } else if (values.metadata !== undefined) {
      throw new UsageError('--metadata explains cells in reports; give --out DIR (or run the default matrix) to write them.');
    }
    // The results to copy units from, read (and checked) before anything runs.
    const reuseFrom = values.reuse === undefined ? undefined : await readResults(resolve(values.reuse));
    // The triage metadata is checked now: a mistake in it must not cost the run its reports.
    const triage = outDir ? await triageForReports(outDir, values.metadata) : [];
    const filters = {
      scenarios,
      ...(wirings === undefined ? {} : { wirings }),
      ...(stores === undefined ? {} : { stores }),
      ...(properties === undefined ? {} : { properties }),
    };
    // What each unit costs, from the results this run writes over (resumed, or of an earlier run of the same kind),
    // or else the published ones, read before this run replaces them: for the ETA, and to start the costliest
    // versions first, so that the workers end together.
    const estimate = await CostEstimate.from((await existing(jsonFile)) ?? (await publishedResults()));
    const runOptions: RunOptions = { ...filters, mode: options.mode ?? 'exhaustive', ...withoutMode(options) };
    const journal = await Journal.open(jsonFile, values.resume ?? false, runOptions, values.extend ?? false);
    // One version alone may not be given a wiring or store it does not have (a typo): but a resumed run's lists are the
    // results' own, which may name another framework's (it goes on with one of the versions a wider run planned).
    const strictFilters = targets.length === 1 && !values.resume;
    journal.plan(targets);
    const failedBefore = journal.failed();
    let todo = targets
      .filter((t) => !failedBefore.has(`${t.framework}@${t.version}`))
      .sort((a, b) => estimate.version(b.framework, b.version) - estimate.version(a.framework, a.version));
    let done = journal.done();
    if (!shard) journal.shard(undefined);
    else {
      const split = await splitPlan(shard, targets, { jobs, timeoutMs: timeoutS * 1000, filters, options, strictFilters }, runOptions, journal.environment.suite);
      journal.shard(split.info);
      const mine = unitsOf(split.info.units, shard.index);
      // A version that would not load is one unit, `*`: the shard it fell to records its error cells; the rest skip it.
      for (const [key, reason] of split.failed) {
        const target = targets.find((t) => `${t.framework}@${t.version}` === key)!;
        if (!mine.has(key) || failedBefore.has(key)) continue;
        journal.target({ framework: target.framework, version: target.version, spec: target.spec, packages: {}, error: reason });
        await journal.add(loadFailedCells(target, filters, reason, options.mode));
      }
      todo = todo.filter((t) => mine.has(`${t.framework}@${t.version}`) && !split.failed.has(`${t.framework}@${t.version}`));
      // Every unit of another shard counts as done here.
      done = new Map(
        Object.entries(split.info.units).map(([key, units]) => [
          key,
          new Set([...(done.get(key) ?? []), ...units.filter(([, s]) => s !== shard.index).map(([unit]) => unit)]),
        ]),
      );
      const count = [...mine.values()].reduce((n, units) => n + units.size, 0);
      const all = Object.values(split.info.units).reduce((n, units) => n + units.length, 0);
      log(`Shard ${shard.index}/${shard.count}: ${count} of the plan's ${all} units, in ${mine.size} framework version${mine.size === 1 ? '' : 's'}.`);
    }
    /** Each version's key parts, once known (after its worker loaded it, or from what is installed here). */
    const parts = new Map<string, KeyParts | string>();
    /** Adapter packages' digests, read once a run (a long-lived process, such as a test's, may see them change). */
    const adapterDigests = new Map<string, string>();
    const partsOf = (t: Target): KeyParts | string => {
      const key = `${t.framework}@${t.version}`;
      const known = parts.get(key);
      if (typeof known === 'object') return known;
      const found = keyParts(framework(t.framework), t, adapterDigests);
      parts.set(key, found);
      return found;
    };
    if (reuseFrom) {
      // A version RESULTS has that is not installed here (a new machine's empty cache) is installed first, in a worker
      // that only lists its units: its installed tree is then known, and compared, like any other version's.
      const toInstall = todo.filter(
        (t) => t.source === undefined && typeof partsOf(t) === 'string' && reuseFrom.targets?.some((r) => r.framework === t.framework && r.version === t.version && r.keys),
      );
      if (toInstall.length > 0) {
        log(`Installing ${toInstall.length} version${toInstall.length === 1 ? '' : 's'} that ${shown(values.reuse!)} has, to compare ${toInstall.length === 1 ? 'its installed tree' : 'their installed trees'}: ${toInstall.map((t) => `${t.framework}@${t.version}`).join(', ')}`);
        await planTargets(toInstall, { jobs, timeoutMs: timeoutS * 1000, filters, options, strictFilters });
        for (const t of toInstall) parts.delete(`${t.framework}@${t.version}`);
      }
      let copiedUnits = 0;
      const whole: string[] = [];
      const why: string[] = [];
      for (const target of [...todo]) {
        const key = `${target.framework}@${target.version}`;
        const reused = reuseFor(reuseFrom, target, partsOf(target), { ...filters }, options);
        const cells = [...reused.units.values()].flat();
        if (reused.whole) {
          journal.target({ ...reused.whole, spec: target.spec });
          todo = todo.filter((t) => t !== target);
          whole.push(key);
        }
        if (cells.length > 0) {
          await journal.add(cells);
          done = new Map(done).set(key, new Set([...(done.get(key) ?? []), ...reused.units.keys()]));
          copiedUnits += reused.units.size;
        }
        if (reused.why) why.push(`  ${key}: ${reused.why}`);
      }
      log(
        `Reusing ${shown(values.reuse!)}: copied ${copiedUnits} unit${copiedUnits === 1 ? '' : 's'} whose keys match; ` +
          `${whole.length} of ${targets.length} version${targets.length === 1 ? '' : 's'} need no worker.` +
          (why.length ? ` What runs, and why:\n${why.join('\n')}` : todo.length ? ' The rest are not in it.' : ''),
      );
    }
    // Long units save checkpoints beside the results. A new run starts from nothing; a resumed one goes on from them,
    // and runs again a unit that timed out or ran out of memory and left one (with a longer --timeout, or more memory,
    // it may now finish).
    const checkpoints = jsonFile && (options.mode ?? 'exhaustive') === 'exhaustive' ? checkpointsFolder(jsonFile) : undefined;
    if (checkpoints && !values.resume) rmSync(checkpoints, { recursive: true, force: true });
    if (checkpoints && values.resume) {
      const again: string[] = [];
      const whys = new Set<string>();
      for (const target of todo) {
        const key = `${target.framework}@${target.version}`;
        const units = unfinishedWithCheckpoint(checkpoints, target, journal.cells());
        const names = new Set(units.map(([unit]) => unit));
        done = new Map(done).set(key, new Set([...(done.get(key) ?? [])].filter((unit) => !names.has(unit))));
        for (const [unit, why] of units) {
          again.push(`${key} ${unit.replace(/\//g, ' ')}`);
          whys.add(why);
        }
      }
      if (again.length > 0) {
        const that = `${again.length} unit${again.length === 1 ? '' : 's'} that ${[...whys].sort().reverse().join(' or ')}`;
        log(`Going on from their checkpoints: ${that} (${again.join(', ')}).`);
      }
    }
    // A version every unit of which the resumed results hold starts no worker: it has nothing to run, and would only
    // write its record again.
    if (values.resume && !journal.widened && !shard) {
      const finished = journal.finishedTargets(todo, done, partsOf);
      todo = todo.filter((t) => !finished.has(`${t.framework}@${t.version}`));
    }
    await journal.flush();
    if (!quiet) {
      io.err(
        todo.length === 0 && reuseFrom
          ? `Nothing to run: every unit of ${targets.map((t) => `${t.framework}@${t.version}`).join(', ')} was copied.\n`
          : todo.length === 0 && values.resume
            ? `Nothing to run: ${shown(jsonFile!)} holds every unit of ${targets.map((t) => `${t.framework}@${t.version}`).join(', ')}.\n`
            : `Running ${targets.length} framework version${targets.length === 1 ? '' : 's'}: ${targets.map((t) => `${t.framework}@${t.version}`).join(', ')} (${Math.min(jobs, todo.length)} at a time)\n`,
      );
      if (values.resume && todo.length > 0) io.err(`${resumeLine(journal, targets, todo, jsonFile!)}\n`);
    }

    // Branch and bound may start its search over, so it saves no checkpoints (but for scenarios with allowed gaps).
    const bounded = reductions(options.reduce).bound;
    // Ctrl-C: keep what finished, drop what the stopped workers leave (it runs again on --resume), and say how to go on.
    const interrupted = async () => {
      await journal.stop();
      const saved = journal.finishedUnits();
      io.err(
        jsonFile
          ? `\nInterrupted. ${saved} finished unit${saved === 1 ? ' is' : 's are'} saved in ${shown(jsonFile)}; the units that were running will run again${checkpoints ? (bounded ? ', from the start where branch and bound ran (it saves no checkpoints), else from their last checkpoints' : ', from their last checkpoints') : ''}. Resume with:\n  ${resumeCommand(argv)}\n`
          : '\nInterrupted. Nothing was saved: give --json FILE or --out DIR to be able to resume a run.\n',
      );
      process.exit(130);
    };
    const onInterrupt = () => void interrupted();
    process.once('SIGINT', onInterrupt);

    const progress = new Progress(io, quiet, todo, estimate, values.verbose ?? false);
    await runPool(
      todo,
      {
        jobs,
        timeoutMs: timeoutS * 1000,
        filters,
        options,
        done,
        strictFilters,
        ...(checkpoints ? { checkpoints: { dir: checkpoints, resume: values.resume ?? false } } : {}),
      },
      {
        plan(target, { packages, nodeEngines, wirings, units: all }, units) {
          // Installed by now: its tree can be read.
          parts.delete(`${target.framework}@${target.version}`);
          const keys = partsOf(target);
          journal.target({
            framework: target.framework,
            version: target.version,
            spec: target.spec,
            packages,
            ...(nodeEngines ? { nodeEngines } : {}),
            units: all.length,
            wirings,
            ...(target.source === undefined ? {} : { source: target.source }),
            ...(typeof keys === 'object' ? { keys } : {}),
          });
          progress.planned(target, units);
        },
        start(target, unit) {
          progress.started(target, unit);
        },
        async cells(target, cells) {
          const keys = partsOf(target);
          await journal.add(typeof keys === 'object' ? cells.map((c) => withKey(c, keys, filters, options)) : cells);
          // Not after an interruption: these cells were not kept, and their units run again.
          if (checkpoints && journal.recording) removeFinished(checkpoints, target, cells);
          progress.finished(target, cells);
        },
        failed(target, reason) {
          journal.target({ framework: target.framework, version: target.version, spec: target.spec, packages: {}, error: reason });
          progress.failed(target, reason);
        },
        log(target, line) {
          log(`${target.framework}@${target.version}: ${line}`);
        },
      },
    );
    process.off('SIGINT', onInterrupt);
    await journal.finish(targets);
    if (checkpoints) removeEmptyFolders(checkpoints);
    progress.end();

    const cells = journal.cells().filter((c) => targets.some((t) => t.framework === c.framework && t.version === c.version));
    const chosen = scenarios.map((id) => SCENARIOS.get(id)!);
    if (targets.length === 1) {
      const [target] = targets;
      const mine = cells.filter((c) => c.version === target!.version);
      const wirings = [...new Set(mine.map((c) => c.wiring))];
      const stores = [...new Set(mine.map((c) => c.store))];
      io.out(
        values.tables
          ? renderTarget({ ...target!, wirings, stores, scenarios: chosen }, mine)
          : `${renderTargetSummary({ ...target!, wirings, stores }, mine)}\nEvery scenario's table: --tables${outDir ? `, or ${shown(join(outDir, `${target!.framework}.md`))}` : ''}.\n`,
      );
    } else {
      io.out(summary(shard ? targets.filter((t) => cells.some((c) => c.framework === t.framework && c.version === t.version)) : targets, cells));
    }
    if (shard) io.out(`\nShard ${shard.index}/${shard.count} done. Combine the ${shard.count} shards' results with: approval-conformance merge FILE... --out DIR\n`);
    if (outDir && !journal.changed && (await reportsOf(outDir, journal.updated))) {
      // A resume that ran nothing changes nothing: the results file and its reports stay as they were.
      io.out(`\nNothing changed: ${shown(jsonFile!)} and the reports in ${shown(outDir)} are as they were. To render the reports again: ${invokedAs()} report ${shown(jsonFile!)}${dirname(jsonFile!) === outDir ? '' : ` --out ${shown(outDir)}`}${values.metadata === undefined ? '' : ` --metadata ${values.metadata}`}\n`);
    } else if (outDir) {
      const written = await writeReports(
        outDir,
        { targets: journal.targets(), cells: journal.cells(), scenarios: chosen, planned: journal.planned(), complete: journal.complete, triage, options: runOptions },
        { environment: journal.environment, updated: journal.updated ?? new Date().toISOString(), ...(jsonFile ? { resultsName: relative(outDir, jsonFile) } : {}) },
      );
      io.out(`\nReports: ${written.length} files in ${shown(outDir)}: open ${shown(join(outDir, 'index.html'))} (or README.md); each failure's story is in ${shown(join(outDir, 'stories'))}/.\n`);
      for (const line of staleWarnings(triage, journal.cells(), { options: runOptions, complete: journal.complete, targets: journal.targets() })) io.err(`${line}\n`);
    }
    const stepText = stepSummary(targets, cells);
    if (values.summary !== undefined) await writeFile(resolve(values.summary), stepText);
    const github = process.env['GITHUB_STEP_SUMMARY'];
    if (github) await appendFile(github, stepText);
    const ran = journal.targets().filter((t) => targets.some((u) => u.framework === t.framework && u.version === t.version));
    if (values.junit !== undefined) {
      await writeFile(resolve(values.junit), junitXml(ran, cells, { ...(jsonFile ? { resultsFile: jsonFile } : {}) }));
    }
    if (jsonFile) io.out(`\nResults: ${jsonFile}\nReplay a counterexample: ${invokedAs()} replay ${shown(jsonFile)} --cell ID\n`);
    return exitCode(ran, cells, failOn, io);
  },
};

/**
 * The split for `run --shard`: every version's units (each loaded once, in a worker, to list them), dealt out by what
 * each cost in the published results, which every machine of one run reads from the same commit.
 */
async function splitPlan(
  shard: Shard,
  targets: readonly Target[],
  pool: Parameters<typeof planTargets>[1],
  options: RunOptions,
  suite: string,
): Promise<{ info: ShardInfo; failed: Map<string, string> }> {
  const plans = await planTargets(targets, pool);
  const costs = await CostEstimate.from(await publishedResults());
  const failed = new Map<string, string>();
  const plan = targets.map((t) => {
    const key = `${t.framework}@${t.version}`;
    const planned = plans.get(key)!;
    if ('error' in planned) {
      failed.set(key, planned.error);
      return { target: key, units: ['*'] };
    }
    return { target: key, units: planned.units.map((u) => u.key) };
  });
  const units = assignShards(plan, shard.count, (target, unit) => {
    if (unit === '*') return 0;
    const [wiring, store, scenario] = unit.split('/') as [string, string, string];
    const at = target.lastIndexOf('@');
    return costs.unit(target.slice(0, at), target.slice(at + 1), { wiring, store, scenario: scenario as ScenarioId });
  });
  return { info: { index: shard.index, count: shard.count, plan: planDigest(suite, options, shard.count, units), units }, failed };
}

/** A finished cell with its unit's key (not a version's `*` error cells: they belong to no unit). */
function withKey(cell: ResultCell, parts: KeyParts, filters: { properties?: readonly PropertyId[] }, options: ExploreOptions): ResultCell {
  if (cell.wiring === '*') return cell;
  return { ...cell, key: unitDigest(parts, { ...cell, properties: unitProperties(cell.scenario, filters) }, options) };
}

/** 3 when the run could not complete (a version would not load; error cells with --fail-on error), 1 when a fail trips --fail-on fail. */
function exitCode(targets: readonly ResultTarget[], cells: readonly ResultCell[], failOn: readonly string[], io: Io): number {
  const unloaded = targets.filter((t) => t.error !== undefined).map((t) => `${t.framework}@${t.version}`);
  const errors = failOn.includes('error') ? cells.filter((c) => c.verdict === 'error' || c.verdict === 'timeout').length : 0;
  const fails = failOn.includes('fail') ? cells.filter((c) => c.verdict === 'fail').length : 0;
  if (unloaded.length > 0 || errors > 0) {
    const why = [
      ...(unloaded.length > 0 ? [`${unloaded.join(', ')} would not install or import`] : []),
      ...(errors > 0 ? [`${errors} cell${errors === 1 ? '' : 's'} errored or timed out (--fail-on error)`] : []),
    ];
    io.err(`approval-conformance: the run could not complete: ${why.join('; ')} (exit ${EXIT.incomplete}).\n`);
    return EXIT.incomplete;
  }
  if (fails > 0) {
    io.err(`approval-conformance: ${fails} cell${fails === 1 ? '' : 's'} failed (--fail-on fail; exit ${EXIT.gate}).\n`);
    return EXIT.gate;
  }
  return EXIT.done;
}

/** One line per framework version: how many cells of each verdict. */
function summary(targets: readonly Target[], cells: readonly ResultCell[]): string {
  const rows = targets.map((t) => {
    const mine = cells.filter((c) => c.framework === t.framework && c.version === t.version);
    return [`${t.framework}@${t.version}`, String(mine.length), ...verdictCounts(mine)];
  });
  const lines = ['', textTable(['version', 'cells', ...VERDICTS.map(shortVerdict)], rows)];
  for (const cell of cells.filter((c) => c.verdict === 'error' || c.verdict === 'timeout')) {
    lines.push(`  ${cell.id}: ${cell.verdict}: ${cell.reason}`);
  }
  return lines.join('\n').replace(/^\n/, '') + '\n';
}


/** The exploration options as the results record them. */
function withoutMode(options: ExploreOptions) {
  return {
    ...(options.mode === 'sampled' ? { samples: options.samples } : {}),
    ...(options.seed === undefined ? {} : { seed: options.seed }),
    ...(options.maxSchedules === undefined ? {} : { maxSchedules: options.maxSchedules }),
    reduce: reductionNames(options.reduce),
    checkContents: options.checkContents ?? true,
  };
}

/**
 * `--no-check-contents` leaves the check of contents out; `--check-contents`, the default since `run` checks them
 * unasked, is still taken (older scripts give it).
 */
function contentsArg(check: boolean | undefined, noCheck: boolean | undefined): boolean {
  if (check && noCheck) throw new UsageError('give --check-contents or --no-check-contents, not both.');
  return !noCheck;
}

const REDUCTIONS = { commute: 'commute', 'source-sets': 'sourceSets', bound: 'bound', symmetry: 'symmetry' } as const;
type ReductionName = keyof typeof REDUCTIONS;

/** `--reduce LIST` or `--no-reduce`: all reductions (true), none (false), or some. */
function reductionsArg(value: string | undefined, none: boolean | undefined): boolean | Reductions {
  if (none && value !== undefined) throw new UsageError('give --reduce LIST or --no-reduce, not both.');
  if (none) return false;
  const names = list('--reduce', value, [...Object.keys(REDUCTIONS), 'none']) as (ReductionName | 'none')[] | undefined;
  if (names === undefined) return true;
  if (names.includes('none')) {
    if (names.length > 1) throw new UsageError(`--reduce none takes no other reduction.`);
    return false;
  }
  if (names.includes('source-sets') && !names.includes('commute')) {
    throw new UsageError('--reduce source-sets needs commute too: source sets are built on commuting releases.');
  }
  return Object.fromEntries(Object.entries(REDUCTIONS).map(([name, key]) => [key, names.includes(name as ReductionName)]));
}

/** How the results record the reductions: true (the default ones), false (none), or the names of those used. */
function reductionNames(reduce: ExploreOptions['reduce']): RunOptions['reduce'] {
  if (reduce === undefined || typeof reduce === 'boolean') return reduce ?? true;
  const used = reductions(reduce);
  const names = (Object.entries(REDUCTIONS) as [ReductionName, keyof typeof used][]).filter(([, key]) => used[key]).map(([name]) => name);
  const isDefault = (Object.keys(used) as (keyof typeof used)[]).every((k) => used[k] === DEFAULT_REDUCTIONS[k]);
  return isDefault ? true : names.length === 0 ? false : names;
}
