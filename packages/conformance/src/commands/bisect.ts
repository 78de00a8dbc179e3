// `bisect`: the first published version where a property's verdict changes, by binary search over releases. Each
// version runs in a worker process, like `run`, so a broken release reads `error` instead of stopping the search.
import semver from 'semver';
import { PROPERTY_IDS, SCENARIOS, type PropertyId, type ScenarioId } from '@approval-conformance/core';
import { parseCommandArgs, positiveInteger } from '../args.js';
import { framework, releases, stable } from '../frameworks.js';
import { runPool } from '../matrix/pool.js';
import { verdictCell } from '../render/verdict.js';
import type { ResultCell } from '../results.js';
import { RunFailure } from '../run-failure.js';
import { UsageError } from '../usage-error.js';
import { exitCodesHelp, EXIT } from '../exit-codes.js';
import type { Command } from './command.js';

const HELP = `Usage: approval-conformance bisect --framework NAME --scenario S --property P [options]

Finds the first published version of a framework where the verdict of one
property in one scenario changes, by binary search over its releases, and
prints the two neighbouring versions with both verdicts. A version's verdict is
the verdict of every wiring and store it runs (narrow it with --wiring and
--store). A release that cannot be judged (it will not install, or a cell
errors or times out) stops the search with its name and exit code 3. Like git
bisect, it finds one change: if the verdict changes more than once in the
range, narrow --range.

Options:
  --framework NAME   the framework (a name, no version)
  --scenario S       the scenario
  --property P       the property
  --wiring LIST      only these wirings
  --store LIST       only these stores
  --range RANGE      the releases to search (default: every release the adapter
                     drives), e.g. '>=1.0.0 <1.5.0'
  --timeout S        seconds one scenario may run (default 1800)
  --max-schedules N  cut each exploration short (verdicts then say partial)
  --quiet            no progress on stderr
  -h, --help         show this help

Examples:
  approval-conformance bisect --framework ai --scenario overlapping-turns \\
    --property shown-is-recorded --wiring native-approval --store memory --range '>=6.0.0 <6.1.0'

${exitCodesHelp('never (bisect reports what it found)', 'a release in the range cannot be judged (it will not install,\n     or a cell errors or times out)')}`;

type Verdicts = string;

export const bisectCommand: Command = {
  name: 'bisect',
  summary: 'find the first release where a verdict changes, by binary search',
  help: HELP,
  async run(argv, io) {
    const { values, positionals } = parseCommandArgs('bisect', argv, {
      framework: { type: 'string' },
      scenario: { type: 'string' },
      property: { type: 'string' },
      wiring: { type: 'string' },
      store: { type: 'string' },
      range: { type: 'string' },
      timeout: { type: 'string' },
      'max-schedules': { type: 'string' },
      quiet: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    });
    if (values.help) {
      io.out(HELP);
      return EXIT.done;
    }
    if (positionals.length > 0) throw new UsageError(`bisect takes no arguments, got '${positionals[0]}'.`);
    for (const flag of ['framework', 'scenario', 'property'] as const) {
      if (values[flag] === undefined) throw new UsageError(`bisect needs --${flag}; see 'approval-conformance bisect --help'.`);
    }
    const fw = framework(values.framework!);
    if (!fw.npm) throw new UsageError(`${fw.name} has only one version; there is nothing to bisect.`);
    const scenario = values.scenario as ScenarioId;
    if (!SCENARIOS.has(scenario)) throw new UsageError(`unknown scenario '${scenario}'; choose from ${[...SCENARIOS.keys()].join(', ')}.`);
    const property = values.property as PropertyId;
    if (!PROPERTY_IDS.includes(property)) throw new UsageError(`unknown property '${property}'; choose from ${PROPERTY_IDS.join(', ')}.`);
    if (!SCENARIOS.get(scenario)!.properties.includes(property)) {
      throw new UsageError(`${scenario} does not check ${property}; it checks ${SCENARIOS.get(scenario)!.properties.join(', ')}.`);
    }
    const range = values.range ?? `>=${fw.oldest}`;
    if (semver.validRange(range) === null) throw new UsageError(`--range '${range}' is not a semver range, e.g. '>=1.0.0 <1.5.0'.`);
    const log = (line: string) => void (values.quiet || io.err(`${line}\n`));
    const versions = stable(await releases(fw, log)).filter((v) => semver.satisfies(v, range) && semver.gte(v, fw.oldest));
    if (versions.length < 2) throw new UsageError(`${fw.name} has ${versions.length} release(s) in '${range}'; bisect needs two.`);
    const split = (v: string | undefined) => v?.split(',').map((s) => s.trim()).filter(Boolean);
    const wirings = split(values.wiring);
    const stores = split(values.store);
    const shape = await fw.shape();
    for (const [flag, asked, known] of [['wiring', wirings, shape.wirings], ['store', stores, shape.stores]] as const) {
      const unknown = asked?.find((x) => !known.includes(x));
      if (unknown) throw new UsageError(`unknown ${flag} '${unknown}' for ${fw.name}; choose from ${known.join(', ')}.`);
    }
    const timeoutMs = positiveInteger('--timeout', values.timeout, 1800, 1, 'seconds') * 1000;
    const maxSchedules = values['max-schedules'] === undefined ? undefined : positiveInteger('--max-schedules', values['max-schedules'], 1);

    const memo = new Map<string, { verdicts: Verdicts; cells: ResultCell[] }>();
    const judge = async (version: string) => {
      if (!memo.has(version)) {
        log(`bisect: running ${fw.name}@${version} ...`);
        const cells: ResultCell[] = [];
        await runPool(
          [{ framework: fw.name, version, spec: `${fw.name}@${version}` }],
          {
            jobs: 1,
            timeoutMs,
            filters: { scenarios: [scenario], properties: [property], ...(wirings ? { wirings } : {}), ...(stores ? { stores } : {}) },
            options: { mode: 'exhaustive', ...(maxSchedules ? { maxSchedules } : {}) },
            done: new Map(),
            strictFilters: false,
          },
          {
            plan: () => {},
            start: () => {},
            cells: async (_t, found) => void cells.push(...found),
            failed: (_t, reason) => log(`bisect: ${fw.name}@${version} could not run: ${reason}`),
            log: (_t, line) => log(`${fw.name}@${version}: ${line}`),
          },
        );
        const verdicts = cells.map((c) => `${c.wiring}/${c.store}: ${c.verdict}`).sort().join('; ');
        memo.set(version, { verdicts, cells });
        log(`bisect: ${fw.name}@${version}: ${summarize(cells)}`);
      }
      return memo.get(version)!;
    };

    // A release that could not be judged (it would not install, a unit errored or timed out, nothing ran) is not a
    // verdict: the search stops there and says so, instead of calling it a change.
    const judged = async (version: string) => {
      const result = await judge(version);
      const broken = result.cells.filter((c) => c.verdict === 'error' || c.verdict === 'timeout');
      if (result.cells.length === 0 || broken.length > 0) {
        const why = broken[0] ? `${broken[0].verdict}: ${broken[0].reason ?? ''}` : 'no cell ran (check --wiring and --store)';
        throw new RunFailure(`bisect stopped at ${fw.name}@${version}, which could not be judged (${why}); narrow --range to leave it out.`);
      }
      return result;
    };
    let lo = 0;
    let hi = versions.length - 1;
    const first = await judged(versions[lo]!);
    const last = await judged(versions[hi]!);
    if (first.verdicts === last.verdicts) {
      io.out(`${fw.name} ${versions[lo]} and ${versions[hi]} agree on ${scenario}/${property}: ${summarize(first.cells)}.\n` +
        `No change to find (it may have changed and changed back; narrow --range to look).\n`);
      return EXIT.done;
    }
    while (hi - lo > 1) {
      const mid = Math.floor((lo + hi) / 2);
      if ((await judged(versions[mid]!)).verdicts === first.verdicts) lo = mid;
      else hi = mid;
    }
    const [before, after] = [versions[lo]!, versions[hi]!];
    io.out(report(fw.name, scenario, property, before, memo.get(before)!.cells, after, memo.get(after)!.cells, memo.size, versions.length));
    return EXIT.done;
  },
};

/** How many cells of each verdict: `4 fail, 2 pass`. */
function summarize(cells: readonly ResultCell[]): string {
  const counts = new Map<string, number>();
  for (const c of cells) counts.set(c.verdict, (counts.get(c.verdict) ?? 0) + 1);
  return [...counts].map(([v, n]) => `${n} ${v}`).join(', ') || 'no cells';
}

function report(
  name: string,
  scenario: string,
  property: string,
  before: string,
  a: readonly ResultCell[],
  after: string,
  b: readonly ResultCell[],
  ran: number,
  of: number,
): string {
  const lines = [`${scenario}/${property} changes between ${name}@${before} and ${name}@${after} (${ran} of ${of} releases run):`, ''];
  const keys = [...new Set([...a, ...b].map((c) => `${c.wiring}/${c.store}`))];
  for (const key of keys) {
    const [x, y] = [a.find((c) => `${c.wiring}/${c.store}` === key), b.find((c) => `${c.wiring}/${c.store}` === key)];
    const mark = x?.verdict === y?.verdict ? ' ' : '~';
    lines.push(`${mark} ${key}: ${x ? verdictCell(x) : '-'} → ${y ? verdictCell(y) : '-'}`);
  }
  return lines.join('\n') + '\n';
}

