// The programmatic API: `run(options)` runs the CLI's own `run` command in-process (worker processes and all) and
// resolves to the results file it wrote, read back and checked like any other; `readResults(path)` reads one written
// earlier. A thin layer over the command on purpose: one code path, so the API and the CLI cannot disagree.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { matrixFrameworkNames, useAdapters } from './frameworks.js';
import { main } from './main.js';
import { readResults as readResultsFile, type ResultsFile } from './results.js';
import { UsageError } from './usage-error.js';
import { EXIT } from './exit-codes.js';

/** One value, or several: a list is what the CLI takes comma-separated. */
type OneOrMore = string | readonly string[];

type Reduction = 'commute' | 'source-sets' | 'bound' | 'symmetry';

/** `run`'s options: each is the `run` flag of the same name (see `approval-conformance run --help`), in camelCase. */
export interface RunOptions {
  /**
   * Framework specs: `reference`, `ai@7.0.185`, `ai@^6.0`, `ai@file:PATH`. Default: every framework over its
   * default versions (the published matrix); unlike the CLI, no reports are written unless `out` is given.
   */
  readonly framework?: OneOrMore;
  /**
   * Third parties' adapter packages (`--adapter`): an npm name installed next to the suite, or a folder. With no
   * `framework`, their frameworks run over their default versions.
   */
  readonly adapter?: OneOrMore;
  readonly wiring?: OneOrMore;
  readonly store?: OneOrMore;
  readonly scenario?: OneOrMore;
  readonly property?: OneOrMore;
  /** Also keep the results in this file (written as the run goes). Default: a temporary file, removed at the end. */
  readonly json?: string;
  /** Also write the reports (Markdown, HTML and results.json) into this folder. */
  readonly out?: string;
  /** Continue the run in `json` (or `out`/results.json) without running finished units again. */
  readonly resume?: boolean;
  /** With `resume`: also run versions the results did not plan, adding their cells (`--extend`). */
  readonly extend?: boolean;
  /** Worker processes at once (default: the number of cores). */
  readonly jobs?: number;
  /** Seconds one scenario may run on a wiring and store before it reads `timeout` (default 1800). */
  readonly timeout?: number;
  /** Sample this many random schedules per cell instead of exploring every one. */
  readonly sampled?: number;
  readonly seed?: number;
  readonly maxSchedules?: number;
  /** The explorer's reductions: all but `bound` (true, the default), none (false), or these. */
  readonly reduce?: boolean | readonly Reduction[];
  /**
   * Check every release's changes of the world's state against its declaration: true, the default, as the CLI does;
   * false is `--no-check-contents` (about 15% faster; the results' `options.checkContents` says which).
   */
  readonly checkContents?: boolean;
  /** A PostgreSQL server for the `postgres` store. */
  readonly postgres?: string;
  /** No progress lines (default true). With false, progress goes to `stderr`. */
  readonly quiet?: boolean;
  /** Where the command's tables go (what the CLI prints on stdout). Default: nowhere. */
  readonly stdout?: (text: string) => void;
  /** Where progress goes when `quiet` is false. Default: process.stderr. */
  readonly stderr?: (text: string) => void;
}

/** A run that could not be done: bad options (exit code 2), or a failure (3). The message is the CLI's. */
export class ConformanceError extends Error {
  override readonly name = 'ConformanceError';
  constructor(
    message: string,
    /** The CLI's exit code for the same command. */
    readonly exitCode: number,
  ) {
    super(message);
  }
}

/** The CLI's arguments for `options`, the results file aside. */
export function runArgs(options: RunOptions): string[] {
  const args: string[] = ['run'];
  const list = (flag: string, value: OneOrMore | undefined) => {
    if (value !== undefined) args.push(`--${flag}`, typeof value === 'string' ? value : value.join(','));
  };
  const number = (flag: string, value: number | undefined) => {
    if (value !== undefined) args.push(`--${flag}`, String(value));
  };
  // No framework: every framework by name, which is the default matrix without its default of writing reports/; with
  // adapters, theirs.
  for (const adapter of options.adapter === undefined ? [] : typeof options.adapter === 'string' ? [options.adapter] : options.adapter) args.push('--adapter', adapter);
  list('framework', options.framework ?? (options.adapter === undefined ? matrixFrameworkNames() : undefined));
  list('wiring', options.wiring);
  list('store', options.store);
  list('scenario', options.scenario);
  list('property', options.property);
  if (options.out !== undefined) args.push('--out', options.out);
  if (options.resume) args.push('--resume');
  if (options.extend) args.push('--extend');
  number('jobs', options.jobs);
  number('timeout', options.timeout);
  number('sampled', options.sampled);
  number('seed', options.seed);
  number('max-schedules', options.maxSchedules);
  if (options.reduce === false) args.push('--no-reduce');
  else if (Array.isArray(options.reduce)) list('reduce', options.reduce.length === 0 ? 'none' : options.reduce);
  if (options.checkContents === false) args.push('--no-check-contents');
  if (options.postgres !== undefined) args.push('--postgres', options.postgres);
  if (options.quiet ?? true) args.push('--quiet');
  return args;
}

/** How the CLI starts an error line on stderr. */
const PREFIX = 'approval-conformance: ';

/** The CLI's error lines, without the prefix: what a rejected run says. */
function errorLines(stderr: string): string {
  const lines = stderr.split('\n').filter((line) => line.startsWith(PREFIX));
  return lines.map((line) => line.slice(PREFIX.length)).join('\n');
}

/**
 * Runs the suite, as `approval-conformance run` does, and resolves to its results. Rejects with a ConformanceError
 * when the options are wrong or the run could not be done; cells that fail or err (a version that would not install
 * included) are results, not rejections.
 */
export async function run(options: RunOptions = {}): Promise<ResultsFile> {
  if (options.resume && options.json === undefined && options.out === undefined) {
    throw new ConformanceError('resume needs the results to continue: give json or out.', 2);
  }
  const temporary = options.json === undefined && options.out === undefined ? await mkdtemp(join(tmpdir(), 'approval-conformance-api-')) : undefined;
  const file = temporary ? join(temporary, 'results.json') : resolve(options.json ?? join(options.out!, 'results.json'));
  // With adapters and no framework, their frameworks, by name: known here, not from state another run may change.
  let framework = options.framework;
  if (framework === undefined && options.adapter !== undefined) {
    try {
      framework = await useAdapters(typeof options.adapter === 'string' ? [options.adapter] : options.adapter);
    } catch (error) {
      if (error instanceof UsageError) throw new ConformanceError(error.message, EXIT.usage);
      throw error;
    }
  }
  const args = runArgs({ ...options, ...(framework === undefined ? {} : { framework }) });
  if (options.json !== undefined || temporary) args.push('--json', file);
  // Errors are kept for the rejection; only a run that is not quiet also shows what it writes to stderr.
  let stderr = '';
  const quiet = options.quiet ?? true;
  const progress = options.stderr ?? ((text: string) => void process.stderr.write(text));
  try {
    const code = await main(args, {
      out: options.stdout ?? (() => {}),
      err: (text) => {
        // The CLI writes whole lines; only its error lines are kept, not a long run's progress.
        if (text.startsWith(PREFIX)) stderr += text;
        if (!quiet) progress(text);
      },
    });
    // Exit code 3 with finished results is a version that would not install or import: its error cells are results.
    if (code === EXIT.incomplete) {
      const results = await readResults(file).catch(() => undefined);
      if (results?.complete) return results;
    }
    if (code !== EXIT.done) throw new ConformanceError(errorLines(stderr) || `the run ended with exit code ${code}`, code);
    return await readResults(file);
  } finally {
    if (temporary) await rm(temporary, { recursive: true, force: true });
  }
}

/** A results file written by `run` (the CLI's `--json`, or `json` above), checked against the results schema. */
export async function readResults(path: string): Promise<ResultsFile> {
  try {
    return await readResultsFile(path);
  } catch (error) {
    if (error instanceof UsageError) throw new ConformanceError(error.message, 2);
    throw error;
  }
}
