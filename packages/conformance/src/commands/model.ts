// `model`: the essay's design model, every switch combination, both properties.
import { modelTable, switchesName, type InvariantVerdict, type ModelTable } from '@approval-conformance/core';
import { parseCommandArgs, positiveInteger } from '../args.js';
import { textTable } from '../render/table.js';
import { UsageError } from '../usage-error.js';
import { exitCodesHelp, EXIT } from '../exit-codes.js';
import type { Command } from './command.js';

const MAX_TURNS = 6;

const HELP = `Usage: approval-conformance model [--turns N] [--json] [--trace]

Checks the essay's design model of the approval protocol by exploring every reachable
state, for all 12 combinations of its three switches:
  spend mode   after (record the spend after the effect), before (record it first,
               as a separate write), cas (compare-and-set, then the effect)
  fresh view   the check re-reads the record, or uses the snapshot the turn restored
  serialize    only one turn at a time between claiming and finishing

For each row it reports at-most-once and no-resurrection: 'holds' (every state
was explored), or 'violated in K states' with the shortest trace, counted in
states including the initial one, as TLC counts them.

Options:
  --turns N   how many turns resume the approval (default 2, at most ${MAX_TURNS})
  --json      print the table as JSON
  --trace     print each violation's steps under the table
  -h, --help  show this help

Examples:
  approval-conformance model                    # two turns, the 12 switch settings
  approval-conformance model --turns 3 --trace  # three turns, each violation's steps

${exitCodesHelp('never (the design model is printed, whatever it finds)')}`;

function cell(verdict: InvariantVerdict): string {
  return verdict.verdict === 'holds' ? 'holds' : `violated in ${verdict.traceStates} states`;
}

export function renderModelTable(table: ModelTable, withTraces: boolean): string {
  const header = ['spend', 'view', 'serialize', 'states', 'at-most-once', 'no-resurrection'];
  const rows = table.rows.map((r) => [
    r.spendMode,
    r.freshView ? 'fresh' : 'snapshot',
    r.serialize ? 'yes' : 'no',
    String(r.statesExplored),
    cell(r.properties['at-most-once']),
    cell(r.properties['no-resurrection']),
  ]);
  const out = [
    `Design model, ${table.turns} turn${table.turns === 1 ? '' : 's'}: every reachable state of all 12 switch combinations.`,
    '',
    textTable(header, rows),
  ];
  if (withTraces) {
    for (const r of table.rows) {
      for (const [property, verdict] of Object.entries(r.properties)) {
        if (verdict.verdict !== 'violated') continue;
        out.push('', `${switchesName(r)}: ${property} violated in ${verdict.traceStates} states`);
        verdict.trace.forEach((step, i) => out.push(`  ${String(i + 1).padStart(2)}. ${step}`));
      }
    }
  }
  return out.join('\n') + '\n';
}

export const modelCommand: Command = {
  name: 'model',
  summary: "check the essay's design model for every switch combination",
  help: HELP,
  run(argv, io) {
    const { values, positionals } = parseCommandArgs('model', argv, {
      turns: { type: 'string' },
      json: { type: 'boolean' },
      trace: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    });
    if (values.help) {
      io.out(HELP);
      return EXIT.done;
    }
    if (positionals.length > 0) throw new UsageError(`model takes no arguments, got '${positionals[0]}'.`);
    const turns = positiveInteger('--turns', values.turns, 2);
    if (turns > MAX_TURNS) {
      throw new UsageError(`--turns is at most ${MAX_TURNS} (the state space grows fast), got ${turns}.`);
    }
    const table = modelTable(turns);
    io.out(values.json ? JSON.stringify(toJson(table), null, 2) + '\n' : renderModelTable(table, values.trace ?? false));
    return EXIT.done;
  },
};

/** The documented JSON shape: traceStates and trace appear only on a violation. */
function toJson(table: ModelTable) {
  return {
    turns: table.turns,
    rows: table.rows.map(({ spendMode, freshView, serialize, statesExplored, properties }) => ({
      spendMode,
      freshView,
      serialize,
      statesExplored,
      properties,
    })),
  };
}
