// `replay`: re-run one counterexample from a results file on a fresh world and print its story.
import { parseSchedule, replaySchedule, SCENARIOS, ScheduleMismatch } from '@approval-conformance/core';
import { parseCommandArgs } from '../args.js';
import { loadAdapter } from '../frameworks.js';
import { cellWithCounterexample, readResults } from '../results.js';
import { UsageError } from '../usage-error.js';
import type { Command } from './command.js';

const HELP = `Usage: approval-conformance replay FILE --cell ID

Replays the counterexample of one cell of a results file (written by
'run --json FILE') on a fresh world, prints its story, and says whether it
reproduced the recorded history. Without --cell, lists the cells that have a
counterexample.

Exit codes: 0 reproduced (or listed), 1 the replay differed, 2 bad input.

Options:
  --cell ID   the cell's id, e.g. reference/after-snapshot/memory/double-resume/at-most-once
  -h, --help  show this help
`;

export const replayCommand: Command = {
  name: 'replay',
  summary: 'replay one counterexample from a results file and print its story',
  help: HELP,
  async run(argv, io) {
    const { values, positionals } = parseCommandArgs('replay', argv, {
      cell: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    });
    if (values.help) {
      io.out(HELP);
      return 0;
    }
    const [file, ...extra] = positionals;
    if (file === undefined) throw new UsageError("replay needs a results FILE; see 'approval-conformance replay --help'.");
    if (extra.length > 0) throw new UsageError(`replay takes one FILE, got also '${extra[0]}'.`);
    if (values.cell === undefined) {
      const replayable = (await readResults(file)).cells.filter((c) => c.counterexample !== undefined);
      io.out(
        replayable.length === 0
          ? `${file} has no counterexamples.\n`
          : `Cells with a counterexample (replay one with --cell ID):\n${replayable.map((c) => `  ${c.id}  ${c.verdict} (${c.counterexample!.steps} steps)`).join('\n')}\n`,
      );
      return 0;
    }
    const cell = await cellWithCounterexample(file, values.cell);
    const counterexample = cell.counterexample!;
    const scenario = SCENARIOS.get(cell.scenario);
    if (!scenario) throw new UsageError(`cell '${cell.id}' names scenario '${cell.scenario}', which this suite does not have.`);
    try {
      parseSchedule(counterexample.schedule);
    } catch (error) {
      throw new UsageError(`cell '${cell.id}' has a corrupt schedule: ${(error as Error).message}.`);
    }
    const adapter = await loadAdapter({ name: cell.framework, version: cell.version });

    const { schedule, story: recorded } = counterexample;
    io.out(`${cell.id}: ${cell.verdict}, ${counterexample.steps} steps\nschedule: ${schedule}\n\n`);
    let story: readonly string[];
    try {
      ({ story } = await replaySchedule({ adapter, wiring: cell.wiring, store: cell.store, scenario }, schedule));
    } catch (error) {
      if (!(error instanceof ScheduleMismatch)) throw error;
      io.out(`The replay did not follow the schedule: ${error.message}.\nThe subject is nondeterministic, or changed since the results were written.\n`);
      return 1;
    }
    const witness = new Set(counterexample.witness);
    io.out(story.map((line, i) => `${witness.has(i) ? '>' : ' '} ${String(i + 1).padStart(2)}. ${line}`).join('\n') + '\n');
    io.out(`\n${counterexample.explanation}\n`);
    const same = story.length === recorded.length && story.every((line, i) => line === recorded[i]);
    io.out(same ? '\nReproduced: the replay gave the recorded history.\n' : '\nDIFFERENT: the replay gave another history than the one recorded.\n');
    return same ? 0 : 1;
  },
};
