// Every example in every command's --help is a command line the suite takes: each is run through its command's
// argument parser (and nothing more: a stub stops the command right after parsing), and none is a usage error.
import { describe, expect, it, vi } from 'vitest';
import type { Command } from './commands/command.js';
import { COMMANDS, HELP } from './main.js';
import { UsageError } from './usage-error.js';

/** Thrown by the stub once a command's arguments parsed: what the parser made of them. */
class Parsed extends Error {
  constructor(readonly command: string, readonly values: Record<string, unknown>, readonly positionals: string[]) {
    super(`${command} parsed`);
  }
}

/** The options each command declared, as the stub saw them. */
const declared = new Map<string, Record<string, { type: string }>>();

vi.mock('./args.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('./args.js')>();
  return {
    ...actual,
    parseCommandArgs: (command: string, argv: readonly string[], options: Record<string, { type: 'string' | 'boolean' }>) => {
      declared.set(command, options);
      const { values, positionals } = actual.parseCommandArgs(command, argv, options);
      throw new Parsed(command, values, positionals);
    },
  };
});

const { LIST_OPTIONS } = await import('./args.js');

/** Every `approval-conformance ...` line of a help text, a line ending in ` \` joined with the next. */
function examples(help: string): string[] {
  const found: string[] = [];
  const lines = help.split('\n');
  for (let i = 0; i < lines.length; i++) {
    if (!/^\s*approval-conformance(\s|$)/.test(lines[i]!)) continue;
    let line = lines[i]!.trim();
    while (line.endsWith(' \\') && i + 1 < lines.length) line = `${line.slice(0, -2)} ${lines[++i]!.trim()}`;
    found.push(line);
  }
  return found;
}

/** A command line's words as a POSIX shell splits them (quotes, a `#` comment); enough for the examples. */
function words(line: string): string[] {
  const out: string[] = [];
  let word: string | undefined;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (/\s/.test(c)) {
      if (word !== undefined) out.push(word);
      word = undefined;
    } else if (c === '#' && word === undefined) {
      break;
    } else if (c === "'" || c === '"') {
      const end = line.indexOf(c, i + 1);
      if (end < 0) throw new Error(`unclosed ${c} in: ${line}`);
      word = (word ?? '') + line.slice(i + 1, end);
      i = end;
    } else if (c === '\\') {
      word = (word ?? '') + (line[++i] ?? '');
    } else {
      word = (word ?? '') + c;
    }
  }
  if (word !== undefined) out.push(word);
  return out;
}

/** The command an example names (none: `run`, as in main), and its arguments. */
function dispatch(argv: string[]): [Command, string[]] {
  const [first, ...rest] = argv;
  const named = first !== undefined && !first.startsWith('-') ? COMMANDS.find((c) => c.name === first) : undefined;
  if (first !== undefined && !first.startsWith('-') && !named) throw new Error(`no command '${first}'`);
  return named ? [named, rest] : [COMMANDS.find((c) => c.name === 'run')!, argv];
}

const io = { out: () => {}, err: () => {} };

const all = [...COMMANDS.map((c) => [c.name, c.help] as const), ['(top level)', HELP] as const];
const cases = all.flatMap(([name, help]) => examples(help).map((line) => [name, line] as const));

describe('the examples in --help', () => {
  it('every command shows some', () => {
    for (const c of COMMANDS) expect(examples(c.help).length, c.name).toBeGreaterThan(0);
  });

  it('joins a continued line, and splits words as a shell does', () => {
    expect(examples('Examples:\n  approval-conformance a \\\n    --b c\n  approval-conformance d # e\n')).toEqual(['approval-conformance a --b c', 'approval-conformance d # e']);
    expect(words(`approval-conformance bisect --range '>=6.0.0 <6.1.0' # why`)).toEqual(['approval-conformance', 'bisect', '--range', '>=6.0.0 <6.1.0']);
  });

  it.each(cases)('%s: %s', async (_, line) => {
    // A continuation whose backslash the help lost reads as one line with a run of spaces in it.
    const command = line.replace(/\s+#.*$/, '');
    expect(command, 'a line continuation lost its backslash').not.toMatch(/\S {2,}\S/);
    const [, ...argv] = words(line);
    const [target, rest] = dispatch(argv);
    const ran = Promise.resolve().then(() => target.run(rest, io));
    const error = await ran.then(
      () => new Error('the command ran past parsing'),
      (e: unknown) => e,
    );
    expect(error, String(error)).not.toBeInstanceOf(UsageError);
    expect(error).toBeInstanceOf(Parsed);
    expect((error as Parsed).values['help']).toBeUndefined();
  });
});

describe('the options that take a list', () => {
  it('are string options of their command: those its --help shows as taking a LIST, SPECS or NAMES', async () => {
    // Parsing `--help` declares each command's options to the stub.
    for (const c of COMMANDS) await Promise.resolve().then(() => c.run(['--help'], io)).catch(() => {});
    for (const [command, names] of Object.entries(LIST_OPTIONS)) {
      for (const name of names) expect(declared.get(command)?.[name]?.type, `${command} --${name}`).toBe('string');
    }
    for (const c of COMMANDS) {
      const shown = [...c.help.matchAll(/^ {2}--([a-z-]+) (LIST|SPECS|NAMES)\b/gm)].map((m) => m[1]!);
      expect([...(LIST_OPTIONS[c.name] ?? [])].sort(), c.name).toEqual(shown.sort());
    }
  });
});
