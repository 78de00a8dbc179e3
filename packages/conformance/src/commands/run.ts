// `run`: explore scenarios on a framework's wirings and stores, print a verdict table, write results JSON.
import { resolve } from 'node:path';
import {
  exploreCell,
  PROPERTY_IDS,
  SCENARIOS,
  type Adapter,
  type ExploreOptions,
  type PropertyId,
  type Scenario,
} from '@approval-conformance/core';
import { parseCommandArgs, positiveInteger } from '../args.js';
import { FRAMEWORK_NAMES, loadAdapter, parseFrameworkSpec } from '../frameworks.js';
import { textTable } from '../render/table.js';
import { verdictCell } from '../render/verdict.js';
import { cellId, writeResults, type ResultCell } from '../results.js';
import { UsageError } from '../usage-error.js';
import type { Command, Io } from './command.js';

const HELP = `Usage: approval-conformance run [--framework NAME[@VERSION]] [options]

Explores every interleaving of each scenario on each wiring and store of a
framework, and prints a table of verdicts per property:
  pass (N schedules)   every schedule within the bound explored; the property held
  pass (sampled N)     N random schedules held; not a proof
  pass (partial N)     stopped at --max-schedules after N schedules; not a proof
  fail (K steps)       the shortest schedule that breaks it (see --json, replay)
  fail (K steps; partial N)  a real failure from a cut-short run; maybe not the shortest
  allowed              broken only inside a gap the scenario admits on purpose
  n/a, error, timeout  not run, or could not be run; never a pass

Options:
  --framework SPEC   framework to check (default: reference). Known: ${FRAMEWORK_NAMES.join(', ')}.
                     NAME@VERSION takes any published version or a range
                     (ai@6: the newest 6.x). Pinned, no install: langgraph
                     1.7.3, 0.2.74; ai 7.0.173, 6.0.326, 5.0.277. Others
                     install once into a cache folder, scripts disabled
  --wiring LIST      comma-separated wirings (default: all the framework has)
  --store LIST       comma-separated stores (default: all the framework has)
  --scenario LIST    comma-separated scenarios (default: all nine)
  --property LIST    comma-separated properties (default: each scenario's own)
  --json FILE        write results JSON (rewritten after every cell)
  --sampled N        sample N random schedules per cell instead of exploring all
  --seed N           first seed for --sampled (default 1)
  --max-schedules N  stop exhaustive exploration after N schedules (the verdict
                     then says it was not exhaustive)
  --no-reduce        explore commuting releases in every order too (slower)
  --quiet            no progress on stderr
  -h, --help         show this help
`;

function list(flag: string, value: string | undefined, known: readonly string[]): string[] | undefined {
  if (value === undefined) return undefined;
  const items = value.split(',').map((s) => s.trim()).filter(Boolean);
  if (items.length === 0) throw new UsageError(`${flag} needs at least one value; choose from ${known.join(', ')}.`);
  for (const item of items) {
    if (!known.includes(item)) throw new UsageError(`unknown ${flag.slice(2)} '${item}'; choose from ${known.join(', ')}.`);
  }
  return items;
}

function pickScenarios(value: string | undefined): Scenario[] {
  const ids = list('--scenario', value, [...SCENARIOS.keys()]) ?? [...SCENARIOS.keys()];
  return ids.map((id) => SCENARIOS.get(id as Scenario['id'])!);
}

interface Plan {
  readonly adapter: Adapter;
  readonly wirings: readonly string[];
  readonly stores: readonly string[];
  readonly scenarios: readonly Scenario[];
  readonly properties: readonly PropertyId[] | undefined;
}

export const runCommand: Command = {
  name: 'run',
  summary: 'explore scenarios on a framework and print the verdict table',
  help: HELP,
  async run(argv, io) {
    const { values, positionals } = parseCommandArgs('run', argv, {
      framework: { type: 'string' },
      wiring: { type: 'string' },
      store: { type: 'string' },
      scenario: { type: 'string' },
      property: { type: 'string' },
      json: { type: 'string' },
      sampled: { type: 'string' },
      seed: { type: 'string' },
      'max-schedules': { type: 'string' },
      'no-reduce': { type: 'boolean' },
      quiet: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    });
    if (values.help) {
      io.out(HELP);
      return 0;
    }
    if (positionals.length > 0) throw new UsageError(`run takes no arguments, got '${positionals[0]}'.`);

    const quiet = values.quiet ?? false;
    const adapter = await loadAdapter(parseFrameworkSpec(values.framework ?? 'reference'), (line) => {
      if (!quiet) io.err(`${line}\n`);
    });
    const plan: Plan = {
      adapter,
      wirings: list('--wiring', values.wiring, adapter.wirings.map((w) => w.id)) ?? adapter.wirings.map((w) => w.id),
      stores: list('--store', values.store, adapter.stores) ?? adapter.stores,
      scenarios: pickScenarios(values.scenario),
      properties: list('--property', values.property, PROPERTY_IDS) as PropertyId[] | undefined,
    };
    const options: ExploreOptions = {
      ...(values.sampled === undefined
        ? { mode: 'exhaustive' as const }
        : { mode: 'sampled' as const, samples: positiveInteger('--sampled', values.sampled, 1000) }),
      seed: positiveInteger('--seed', values.seed, 1, 0),
      ...(values['max-schedules'] === undefined
        ? {}
        : { maxSchedules: positiveInteger('--max-schedules', values['max-schedules'], 1) }),
      reduce: !values['no-reduce'],
    };
    const jsonFile = values.json === undefined ? undefined : resolve(values.json);
    const cells = await runPlan(plan, options, io, quiet, jsonFile);

    io.out(renderRun(plan, cells));
    if (jsonFile) io.out(`\nResults: ${jsonFile}\nReplay a counterexample: approval-conformance replay ${values.json} --cell ID\n`);
    return 0;
  },
};

async function runPlan(plan: Plan, options: ExploreOptions, io: Io, quiet: boolean, jsonFile: string | undefined) {
  const { adapter } = plan;
  const cells: ResultCell[] = [];
  const jobs = plan.scenarios.flatMap((scenario) =>
    plan.wirings.flatMap((wiring) => plan.stores.map((store) => ({ scenario, wiring, store }))),
  );
  let done = 0;
  for (const { scenario, wiring, store } of jobs) {
    done++;
    if (!quiet) io.err(`[${done}/${jobs.length}] ${adapter.framework}@${adapter.version} ${wiring} ${store} ${scenario.id}\n`);
    const properties = scenario.properties.filter((p) => plan.properties?.includes(p) ?? true);
    if (properties.length === 0) continue;
    const base = { framework: adapter.framework, version: adapter.version, wiring, store, scenario: scenario.id };
    const applicable = adapter.applicability(scenario.id, wiring, store);
    if (!applicable.applicable) {
      for (const property of properties) {
        cells.push({
          id: cellId({ ...base, property }),
          ...base,
          property,
          verdict: 'not-applicable',
          mode: options.mode ?? 'exhaustive',
          exhaustive: false,
          schedules: 0,
          reason: applicable.reason,
        });
      }
    } else {
      const result = await exploreCell({ adapter, wiring, store, scenario: { ...scenario, properties } }, options);
      const findings = result.findings.length > 0 ? { findings: result.findings } : {};
      for (const v of result.verdicts) {
        cells.push({ id: cellId({ ...base, property: v.property }), ...base, mode: result.mode, ...v, ...findings });
      }
    }
    // Every finished cell is on disk at once: an interrupted run loses nothing it finished.
    if (jsonFile) await writeResults(jsonFile, cells);
  }
  return cells;
}

function renderRun(plan: Plan, cells: readonly ResultCell[]): string {
  const out: string[] = [];
  for (const scenario of plan.scenarios) {
    const mine = cells.filter((c) => c.scenario === scenario.id);
    const properties = scenario.properties.filter((p) => mine.some((c) => c.property === p));
    if (properties.length === 0) continue;
    out.push('', `${plan.adapter.framework}@${plan.adapter.version} · ${scenario.id}: ${scenario.summary}`, '');
    const rows = plan.wirings.flatMap((wiring) =>
      plan.stores.map((store) => [
        wiring,
        store,
        ...properties.map((p) => {
          const cell = mine.find((c) => c.wiring === wiring && c.store === store && c.property === p);
          return cell ? verdictCell(cell) : '';
        }),
      ]),
    );
    out.push(textTable(['wiring', 'store', ...properties], rows));
  }
  const count = (verdict: string) => cells.filter((c) => c.verdict === verdict).length;
  const tally = ['pass', 'fail', 'allowed', 'not-applicable', 'error', 'timeout']
    .filter((v) => count(v) > 0)
    .map((v) => `${count(v)} ${v}`)
    .join(', ');
  out.push('', `${cells.length} cells: ${tally || 'none run'}.`);
  for (const cell of cells.filter((c) => c.verdict === 'error' || c.verdict === 'timeout')) {
    out.push(`  ${cell.id}: ${cell.verdict}: ${cell.reason}`);
  }
  const notApplicable = new Map<string, Set<string>>();
  for (const c of cells.filter((c) => c.verdict === 'not-applicable')) {
    const where = notApplicable.get(c.reason ?? '') ?? new Set<string>();
    notApplicable.set(c.reason ?? '', where.add(`${c.wiring}/${c.store}`));
  }
  if (notApplicable.size > 0) out.push('', 'Not applicable:');
  for (const [reason, where] of notApplicable) out.push(`  ${[...where].join(', ')}: ${reason}`);
  const findings = new Map<string, readonly string[]>();
  for (const c of cells) if (c.findings) findings.set(`${c.framework}/${c.wiring}/${c.store}/${c.scenario}`, c.findings);
  if (findings.size > 0) out.push('', 'Findings (behaviour no property covers):');
  for (const [where, list] of findings) out.push(...list.map((f) => `  ${where}: ${f}`));
  return out.join('\n').replace(/^\n/, '') + '\n';
}
