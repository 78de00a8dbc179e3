// The CLI's dispatcher, separate from the process so tests can run it in-process.
import { auditCommand } from './commands/audit.js';
import { bisectCommand } from './commands/bisect.js';
import { diffCommand } from './commands/diff.js';
import { initAdapterCommand } from './commands/init-adapter.js';
import { mergeCommand } from './commands/merge.js';
import { modelCommand } from './commands/model.js';
import { regressionCommand } from './commands/regression.js';
import { reproCommand } from './commands/repro.js';
import { replayCommand } from './commands/replay.js';
import { reportCommand } from './commands/report.js';
import { runCommand } from './commands/run.js';
import type { Command, Io } from './commands/command.js';
import { EXIT, exitCodesHelp } from './exit-codes.js';
import { fsProblem } from './fs-problem.js';
import { useCommandAdapters } from './registry.js';
import { RunFailure } from './run-failure.js';
import { UsageError } from './usage-error.js';

export const COMMANDS: readonly Command[] = [runCommand, modelCommand, replayCommand, regressionCommand, reproCommand, diffCommand, bisectCommand, mergeCommand, reportCommand, auditCommand, initAdapterCommand];

/** The command that runs when none is named: the runner, which with no options runs the default matrix. */
const DEFAULT_COMMAND = runCommand;

export const HELP = `Usage: approval-conformance <command> [options]

Checks whether AI-agent frameworks keep the promise behind their confirmation
button: an approved action runs at most once, exactly as approved, and is
recorded and disclosed truthfully, under every interleaving.

Commands:
${COMMANDS.map((c) => `  ${c.name.padEnd(Math.max(...COMMANDS.map((d) => d.name.length)) + 2)}${c.summary}`).join('\n')}

With no command, runs '${DEFAULT_COMMAND.name}': with no options, the published default matrix, into reports/.

Every command takes --adapter PACKAGE_OR_PATH (repeatable): a third party's
adapter package (its npm name, installed next to this CLI, or its folder),
whose frameworks it then knows like the built-in ones. See
packages/core/ADAPTERS.md, "Describing a framework".

Run 'approval-conformance help <command>' (or '<command> --help') for a command's options.

${exitCodesHelp('run --fail-on, diff --exit-code or --fail-on, a replay that differed', 'a version would not install or import, error or timeout\n     cells with run --fail-on error, bisect at a version it cannot judge')}`;

/**
 * `--adapter X` and `--adapter=X`, wherever they are before a `--`: every command takes them, so they are taken out
 * here, before the command parses the rest.
 */
export function splitAdapters(argv: readonly string[]): { adapters: string[]; rest: string[] } {
  const adapters: string[] = [];
  const rest: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--') {
      rest.push(...argv.slice(i));
      break;
    }
    if (arg.startsWith('--adapter=')) {
      const value = arg.slice('--adapter='.length);
      if (value === '') throw new UsageError('--adapter needs a value: an adapter package\'s name or folder.');
      adapters.push(value);
    } else if (arg === '--adapter') {
      const value = argv[i + 1];
      if (value === undefined || value.startsWith('-')) {
        throw new UsageError(`--adapter needs a value: an adapter package's name or folder${value === undefined ? '' : `, but '${value}' follows it`}.`);
      }
      adapters.push(value);
      i++;
    } else {
      rest.push(arg);
    }
  }
  return { adapters, rest };
}

export async function main(commandLine: readonly string[], io: Io): Promise<number> {
  try {
    const { adapters, rest: argv } = splitAdapters(commandLine);
    const [first, ...rest] = argv;
    // Help and the version need no adapter: a broken one does not stand in their way.
    const helpOnly = first === 'help' || first === '--version' || first === '-v' || argv.some((a) => a === '--help' || a === '-h');
    await useCommandAdapters(helpOnly ? [] : adapters);
    if (first === '--help' || first === '-h' || first === 'help') {
      // `help CMD` is `CMD --help`.
      const named = first === 'help' && rest[0] !== undefined ? COMMANDS.find((c) => c.name === rest[0]) : undefined;
      if (first === 'help' && rest[0] !== undefined && !named) {
        throw new UsageError(`no command '${rest[0]}'. Commands: ${COMMANDS.map((c) => c.name).join(', ')}.`);
      }
      io.out(named ? named.help : HELP);
      return 0;
    }
    if (first === '--version' || first === '-v') {
      io.out(`${await suiteVersion()}\n`);
      return 0;
    }
    if (first === undefined || first.startsWith('-')) {
      // No command: the default one, with any options given.
      return await DEFAULT_COMMAND.run(argv, io);
    }
    const command = COMMANDS.find((c) => c.name === first);
    if (!command) {
      throw new UsageError(`unknown command '${first}'. Commands: ${COMMANDS.map((c) => c.name).join(', ')}. See 'approval-conformance --help'.`);
    }
    return await command.run(rest, io);
  } catch (error) {
    if (error instanceof UsageError) {
      io.err(`approval-conformance: ${error.message}\n`);
      return EXIT.usage;
    }
    if (error instanceof RunFailure) {
      io.err(`approval-conformance: ${error.message}\n`);
      return EXIT.incomplete;
    }
    const problem = fsProblem(error);
    if (problem !== undefined) {
      io.err(`approval-conformance: ${problem}\n`);
      return EXIT.usage;
    }
    const message = error instanceof Error ? error.message : String(error);
    io.err(`approval-conformance: internal error: ${message}. This is a bug in the suite; please report it (set APPROVAL_CONFORMANCE_DEBUG=1 for the stack).\n`);
    if (process.env['APPROVAL_CONFORMANCE_DEBUG']) io.err(`${(error as Error).stack}\n`);
    return EXIT.incomplete;
  }
}

async function suiteVersion(): Promise<string> {
  const { readFile } = await import('node:fs/promises');
  const pkg = JSON.parse(await readFile(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
  return pkg.version;
}
