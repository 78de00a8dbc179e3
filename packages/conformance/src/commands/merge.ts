// `merge`: the results of the shards of one run (`run --shard I/N` on N machines) as one results.json and its reports,
// the same as one machine running the whole plan would have written.
import { join, resolve } from 'node:path';
import { SCENARIOS, type ScenarioId } from '@approval-conformance/core';
import { parseCommandArgs } from '../args.js';
import { mergeShards } from '../merge.js';
import { reportsFolder, writeResultsReports } from '../render/reports.js';
import { staleWarnings, triageForReports } from '../triage.js';
import { readResults, writeResults } from '../results.js';
import { UsageError } from '../usage-error.js';
import { exitCodesHelp, EXIT } from '../exit-codes.js';
import type { Command } from './command.js';

const HELP = `Usage: approval-conformance merge SHARD.json... --out DIR [--partial] [--metadata DIR]

Combines the results of the shards of one run ('run --shard I/N', one file
per shard) into DIR/results.json and DIR's reports, as a single run of the
whole plan would have written them. The shards must come from the same
suite version, the same frameworks and options, and the same split; each
must be given once, and together they must cover the plan. Otherwise
nothing is written and the error names the file.

Options:
  --out DIR       where to write results.json and the reports (required)
  --partial       merge even if shards are missing or did not finish; the
                  results then say they are incomplete
  --metadata DIR  triage metadata for the reports (default: DIR/metadata of
                  --out, when it exists); see 'run --help'
  -h, --help      show this help

Examples:
  approval-conformance run --shard 1/2 --json shard-1.json   # on one machine
  approval-conformance run --shard 2/2 --json shard-2.json   # on another
  approval-conformance merge shard-1.json shard-2.json --out reports

${exitCodesHelp('never')}`;

export const mergeCommand: Command = {
  name: 'merge',
  summary: "combine the results of a run's shards (run --shard I/N) into one results.json and reports",
  help: HELP,
  async run(argv, io) {
    const { values, positionals } = parseCommandArgs('merge', argv, {
      out: { type: 'string' },
      partial: { type: 'boolean' },
      metadata: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    });
    if (values.help) {
      io.out(HELP);
      return EXIT.done;
    }
    if (positionals.length === 0) throw new UsageError(`merge needs the shards' results files; see 'approval-conformance merge --help'.`);
    if (values.out === undefined) throw new UsageError('merge needs --out DIR: where to write the merged results.json and reports.');
    const files = [];
    for (const name of positionals) files.push({ name, results: await readResults(name) });
    const { results, missing } = mergeShards(files, { partial: values.partial ?? false });
    for (const what of missing) io.err(`approval-conformance: missing from the merge: ${what}\n`);

    const dir = await reportsFolder(values.out);
    const triage = await triageForReports(dir, values.metadata);
    const { schemaVersion: _, ...rest } = results;
    await writeResults(join(dir, 'results.json'), rest);
    const scenarios = (results.options?.scenarios ?? [...SCENARIOS.keys()]).map((id) => SCENARIOS.get(id as ScenarioId)!).filter(Boolean);
    const written = await writeResultsReports(dir, results, scenarios, 'results.json', triage);
    io.out(`Merged ${files.length} shard${files.length === 1 ? '' : 's'}: ${results.cells.length} cells${missing.length ? ' (incomplete)' : ''}.\nWrote ${join(dir, 'results.json')} and ${written.length} report files into ${dir}.\n`);
    for (const line of staleWarnings(triage, results.cells, results)) io.err(`${line}\n`);
    return EXIT.done;
  },
};
