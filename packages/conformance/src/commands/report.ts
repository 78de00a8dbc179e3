// `report`: write the reports of a results file again (after the renderer changed, or for a file from elsewhere)
// without running anything.
import { copyFile } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import { SCENARIOS } from '@approval-conformance/core';
import { parseCommandArgs, resultsFileArg } from '../args.js';
import { reportsFolder, writeResultsReports } from '../render/reports.js';
import { readResults } from '../results.js';
import { staleWarnings, triageForReports } from '../triage.js';
import { exitCodesHelp, EXIT } from '../exit-codes.js';
import type { Command } from './command.js';

const HELP = `Usage: approval-conformance report RESULTS_FILE [--out DIR] [--metadata DIR]

Writes the reports of a results file (written by 'run'): the index, a page
per framework and the counterexample stories, in Markdown and HTML, into DIR
(default: the file's own folder). Nothing is run again.

Options:
  --out DIR       where to write the reports; RESULTS_FILE is copied there as results.json
  --metadata DIR  triage metadata: <framework>.yml files linking failing cells to
                  the framework's own docs or issues (default: DIR/metadata of
                  the reports' folder, when it exists); stale entries are reported
  -h, --help      show this help

Examples:
  approval-conformance report results.json --out my-reports   # Markdown and HTML
  approval-conformance report reports/results.json            # again, in place

${exitCodesHelp('never')}`;

export const reportCommand: Command = {
  name: 'report',
  summary: 'write the reports of a results file again, without running anything',
  help: HELP,
  async run(argv, io) {
    const { values, positionals } = parseCommandArgs('report', argv, {
      out: { type: 'string' },
      metadata: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    });
    if (values.help) {
      io.out(HELP);
      return EXIT.done;
    }
    const file = resultsFileArg('report', positionals);
    const results = await readResults(file);
    const dir = await reportsFolder(values.out ?? join(file, '..'));
    const triage = await triageForReports(dir, values.metadata);
    // With --out the data goes along as results.json; without, the reports link to the file where it is.
    let resultsName = basename(file);
    if (values.out !== undefined && resolve(file) !== join(dir, 'results.json')) {
      await copyFile(file, join(dir, 'results.json'));
      resultsName = 'results.json';
    }
    const written = await writeResultsReports(dir, results, [...SCENARIOS.values()], resultsName, triage);
    io.out(`Wrote ${written.length} files into ${dir}.\n`);
    for (const line of staleWarnings(triage, results.cells, results)) io.err(`${line}\n`);
    return EXIT.done;
  },
};
