// Argument parsing shared by the commands: node's parseArgs in strict mode, with its errors turned into one line.
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { UsageError } from './usage-error.js';

type Options = NonNullable<ParseArgsConfig['options']>;

type Parsed<O extends Options> = ReturnType<
  typeof parseArgs<{ args: string[]; options: O; strict: true; allowPositionals: true }>
>;

export function parseCommandArgs<O extends Options>(command: string, argv: readonly string[], options: O): Parsed<O> {
  try {
    return parseArgs({ args: [...argv], options, strict: true, allowPositionals: true });
  } catch (error) {
    // parseArgs says e.g. "Unknown option '--foo'. To specify a positional argument starting with a '-'...":
    // keep its first sentence, which names the problem.
    const first = String((error as Error).message).split(/\.\s/)[0]!.replace(/\.$/, '');
    throw new UsageError(`${command}: ${first}. See 'approval-conformance ${command} --help'.`);
  }
}

/** A whole number of at least `min`, or a UsageError naming the flag and what it takes. */
export function positiveInteger(flag: string, value: string | undefined, fallback: number, min = 1): number {
  if (value === undefined) return fallback;
  if (!/^\d+$/.test(value) || Number(value) < min || !Number.isSafeInteger(Number(value))) {
    throw new UsageError(`${flag} takes a whole number of at least ${min}, got '${value}'.`);
  }
  return Number(value);
}

/** The one results file a command reads, or a usage error that says what is missing or extra. */
export function resultsFileArg(command: string, positionals: readonly string[]): string {
  const [file, ...extra] = positionals;
  if (file === undefined) throw new UsageError(`${command} needs a results FILE; see 'approval-conformance ${command} --help'.`);
  if (extra.length > 0) throw new UsageError(`${command} takes one FILE, got also '${extra[0]}'.`);
  return file;
}
