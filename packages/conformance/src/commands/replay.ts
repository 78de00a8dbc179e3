// `replay`: re-run one counterexample from a results file on a fresh world and print its story, or all of them.
import { parseSchedule, replaySchedule, SCENARIOS, ScheduleMismatch, type Adapter } from '@approval-conformance/core';
import { parseCommandArgs, resultsFileArg } from '../args.js';
import { loadCellAdapter } from '../frameworks.js';
import { cellWithCounterexample, readResults, type ResultCell, type ResultTarget } from '../results.js';
import { UsageError } from '../usage-error.js';
import { exitCodesHelp, EXIT } from '../exit-codes.js';
import type { Command } from './command.js';

const HELP = `Usage: approval-conformance replay FILE [--cell ID | --all]

Replays the counterexample of one cell of a results file (written by
'run --json FILE') on a fresh world, prints its story, and says whether it
reproduced the recorded history. With --all, replays every counterexample in the
file and prints one line for each. Without either, lists the cells that have a
counterexample.

Options:
  --cell ID       the cell's id, e.g. reference@0.0.0/after-snapshot/memory/double-resume/at-most-once
  --all           replay every counterexample in the file
  --postgres URL  the PostgreSQL server for cells of the postgres store
                  (also read from APPROVAL_CONFORMANCE_POSTGRES)
  -h, --help      show this help

Examples:
  approval-conformance replay reports/results.json       # list the counterexamples
  approval-conformance replay reports/results.json \\
    --cell reference@0.0.0/after-snapshot/memory/double-resume/at-most-once
  approval-conformance replay reports/results.json --all # does each still reproduce?

${exitCodesHelp('a replay did not reproduce the recorded history')}`;

export const replayCommand: Command = {
  name: 'replay',
  summary: 'replay one counterexample from a results file and print its story',
  help: HELP,
  async run(argv, io) {
    const { values, positionals } = parseCommandArgs('replay', argv, {
      cell: { type: 'string' },
      all: { type: 'boolean' },
      postgres: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    });
    if (values.help) {
      io.out(HELP);
      return EXIT.done;
    }
    const file = resultsFileArg('replay', positionals);
    if (values.postgres !== undefined) process.env['APPROVAL_CONFORMANCE_POSTGRES'] = values.postgres;
    if (values.all) {
      if (values.cell !== undefined) throw new UsageError('replay takes --cell ID or --all, not both.');
      return replayAll(file, io);
    }
    if (values.cell === undefined) {
      const replayable = (await readResults(file)).cells.filter((c) => c.counterexample !== undefined);
      io.out(
        replayable.length === 0
          ? `${file} has no counterexamples.\n`
          : `Cells with a counterexample (replay one with --cell ID):\n${replayable.map((c) => `  ${c.id}  ${c.verdict} (${c.counterexample!.steps} steps)`).join('\n')}\n`,
      );
      return EXIT.done;
    }
    const cell = await cellWithCounterexample(file, values.cell);
    const counterexample = cell.counterexample!;
    io.out(`${cell.id}: ${cell.verdict}, ${counterexample.steps} steps\nschedule: ${counterexample.schedule}\n\n`);
    const adapters = new Map<string, Promise<Adapter>>();
    const replayed = await replayCell(cell, adapters, (await readResults(file)).targets).finally(() => disposeAll(adapters));
    if (replayed.outcome === 'mismatch') {
      io.out(`The replay did not follow the schedule: ${replayed.message}.\nThe subject is nondeterministic, or changed since the results were written.\n`);
      return EXIT.gate;
    }
    const witness = new Set(counterexample.witness);
    io.out(replayed.story.map((line, i) => `${witness.has(i) ? '>' : ' '} ${String(i + 1).padStart(2)}. ${line}`).join('\n') + '\n');
    io.out(`\n${counterexample.explanation}\n`);
    const same = replayed.outcome === 'reproduced';
    io.out(same ? '\nReproduced: the replay gave the recorded history.\n' : '\nDIFFERENT: the replay gave another history than the one recorded.\n');
    return same ? 0 : 1;
  },
};

type Replayed =
  | { readonly outcome: 'reproduced' | 'different'; readonly story: readonly string[] }
  | { readonly outcome: 'mismatch'; readonly message: string };

/** The adapters a replay loaded are done with: what they kept across replays (a template database) goes. */
async function disposeAll(adapters: Map<string, Promise<Adapter>>): Promise<void> {
  for (const loading of adapters.values()) await (await loading.catch(() => undefined))?.dispose?.().catch(() => undefined);
}

/** Runs a cell's counterexample again on a fresh world; adapters are loaded once per framework version. */
async function replayCell(
  cell: ResultCell,
  adapters: Map<string, Promise<Adapter>>,
  targets: readonly ResultTarget[] = [],
): Promise<Replayed> {
  const counterexample = cell.counterexample!;
  const scenario = SCENARIOS.get(cell.scenario);
  if (!scenario) throw new UsageError(`cell '${cell.id}' names scenario '${cell.scenario}', which this suite does not have.`);
  try {
    parseSchedule(counterexample.schedule);
  } catch (error) {
    throw new UsageError(`cell '${cell.id}' has a corrupt schedule: ${(error as Error).message}.`);
  }
  const key = `${cell.framework}@${cell.version}`;
  if (!adapters.has(key)) adapters.set(key, loadCellAdapter(cell, targets));
  const adapter = await adapters.get(key)!;
  try {
    const { story } = await replaySchedule({ adapter, wiring: cell.wiring, store: cell.store, scenario }, counterexample.schedule);
    const recorded = counterexample.story;
    const same = story.length === recorded.length && story.every((line, i) => line === recorded[i]);
    return { outcome: same ? 'reproduced' : 'different', story };
  } catch (error) {
    if (!(error instanceof ScheduleMismatch)) throw error;
    return { outcome: 'mismatch', message: error.message };
  }
}

/** Every counterexample of a results file, one line each, and exit code 1 if any did not reproduce. */
async function replayAll(file: string, io: Parameters<Command['run']>[1]): Promise<number> {
  const results = await readResults(file);
  const cells = results.cells.filter((c) => c.counterexample !== undefined);
  const adapters = new Map<string, Promise<Adapter>>();
  let differed = 0;
  try {
    for (const cell of cells) {
      const replayed = await replayCell(cell, adapters, results.targets);
      if (replayed.outcome !== 'reproduced') differed++;
      const word = { reproduced: 'reproduced', different: 'DIFFERENT ', mismatch: 'MISMATCH  ' }[replayed.outcome];
      io.out(`${word}  ${cell.id}\n`);
    }
  } finally {
    await disposeAll(adapters);
  }
  io.out(`\n${cells.length - differed} reproduced, ${differed} differed.\n`);
  return differed === 0 ? EXIT.done : EXIT.gate;
}
