// Argument parsing shared by the commands: node's parseArgs in strict mode, with its errors turned into one line.
// Every command parses through here, so these hold for all of them alike:
// - an option that takes a comma-separated list (`LIST_OPTIONS`) may be given more than once: the lists are joined,
//   so `--framework reference --framework ai` is `--framework reference,ai`;
// - any other option given more than once is refused (exit 2), never silently the last one;
// - a value that is a negative number (`--timeout -5`) is the option's value, for the command to say what is wrong
//   with it, rather than parseArgs' "argument is ambiguous".
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { UsageError } from './usage-error.js';

type Options = NonNullable<ParseArgsConfig['options']>;

type Parsed<O extends Options> = ReturnType<
  typeof parseArgs<{ args: string[]; options: O; strict: true; allowPositionals: true }>
>;

/** By command, the options whose value is a comma-separated list: given more than once, their lists are joined. */
export const LIST_OPTIONS: Readonly<Record<string, readonly string[]>> = {
  run: ['framework', 'wiring', 'store', 'scenario', 'property', 'fail-on', 'reduce'],
  bisect: ['wiring', 'store'],
  audit: ['framework'],
  diff: ['framework'],
};

/** A value that reads as a negative number: `-5`, `-0.5`, `-5s`. */
const NEGATIVE = /^-[\d.]/;

const times = (n: number) => (n === 2 ? 'twice' : `${n} times`);

export function parseCommandArgs<O extends Options>(command: string, argv: readonly string[], options: O): Parsed<O> {
  const lists = new Set(LIST_OPTIONS[command] ?? []);
  const strings = Object.keys(options).filter((name) => options[name]!.type === 'string' && !options[name]!.multiple);
  // Every string option is parsed as repeatable, so that a repeat is seen rather than replacing the value before it.
  const repeatable = Object.fromEntries(Object.entries(options).map(([name, o]) => [name, strings.includes(name) ? { ...o, multiple: true } : o]));
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({ args: withNegativeValues(argv, strings), options: repeatable, strict: true, allowPositionals: true });
  } catch (error) {
    throw new UsageError(`${command}: ${parseProblem(error as Error, argv)} See 'approval-conformance ${command} --help'.`);
  }
  const values = parsed.values as Record<string, unknown>;
  for (const name of strings) {
    const given = values[name] as string[] | undefined;
    if (given === undefined) continue;
    if (given.length > 1 && !lists.has(name)) {
      throw new UsageError(`${command}: --${name} is given ${times(given.length)} (${given.map((v) => `'${v}'`).join(', ')}); give it once.`);
    }
    values[name] = lists.has(name) ? given.join(',') : given[0];
  }
  return parsed as Parsed<O>;
}

/** `--name -5` as `--name=-5`, for each string option: parseArgs would refuse the value as perhaps an option. */
function withNegativeValues(argv: readonly string[], strings: readonly string[]): string[] {
  const args: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    args.push(arg);
    if (arg === '--') {
      args.push(...argv.slice(i + 1));
      break;
    }
    if (!arg.startsWith('--') || !strings.includes(arg.slice(2))) continue;
    const next = argv[i + 1];
    if (next === undefined) continue;
    // The next argument is this option's value either way; only one that reads as a negative number is rewritten.
    if (NEGATIVE.test(next)) args[args.length - 1] = `${arg}=${next}`;
    else args.push(next);
    i++;
  }
  return args;
}

/** What parseArgs found wrong, in one sentence that ends with a full stop. */
function parseProblem(error: Error, argv: readonly string[]): string {
  const message = String(error.message);
  const ambiguous = /^Option '(--[^']+)' argument is ambiguous/.exec(message);
  if (ambiguous) {
    // The value after it starts with '-': a forgotten value, or a value that starts with a dash.
    const flag = ambiguous[1]!;
    const next = argv[argv.indexOf(flag) + 1] ?? '';
    return next.startsWith('--')
      ? `${flag} needs a value, but '${next}' follows it.`
      : `${flag} needs a value, and '${next}' reads as an option; to give a value that starts with '-', write ${flag}=${next}.`;
  }
  // parseArgs says e.g. "Unknown option '--foo'. To specify a positional argument starting with a '-'...":
  // keep its first sentence, which names the problem.
  return `${message.split(/\.\s/)[0]!.replace(/\.$/, '')}.`;
}

/** A whole number of at least `min` (of `unit`, when given: `seconds`), or a UsageError naming the flag and what it takes. */
export function positiveInteger(flag: string, value: string | undefined, fallback: number, min = 1, unit?: string): number {
  if (value === undefined) return fallback;
  if (!/^\d+$/.test(value) || Number(value) < min || !Number.isSafeInteger(Number(value))) {
    throw new UsageError(`${flag} takes a whole number${unit ? ` of ${unit},` : ' of'} at least ${min}, got '${value}'.`);
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
