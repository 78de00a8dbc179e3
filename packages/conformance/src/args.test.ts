// The argument parser every command shares: a repeated option is joined (a list) or refused, never dropped, and a
// negative number reaches the command, which says what it must be.
import { describe, expect, it } from 'vitest';
import { parseCommandArgs } from './args.js';
import { cli } from './run-io.fixtures.js';

const options = {
  framework: { type: 'string' },
  scenario: { type: 'string' },
  timeout: { type: 'string' },
  json: { type: 'string' },
  quiet: { type: 'boolean' },
} as const;

describe('a repeated option', () => {
  it('joins the lists of an option that takes a comma-separated list', () => {
    const { values } = parseCommandArgs('run', ['--framework', 'reference', '--framework=adk,ai', '--scenario', 'replay'], options);
    expect(values.framework).toBe('reference,adk,ai');
    expect(values.scenario).toBe('replay');
  });

  it('is refused when the option takes one value, by every command alike', () => {
    expect(() => parseCommandArgs('run', ['--timeout', '5', '--timeout', '6'], options)).toThrow("run: --timeout is given twice ('5', '6'); give it once.");
    expect(() => parseCommandArgs('bisect', ['--framework', 'ai', '--framework', 'adk'], options)).toThrow("bisect: --framework is given twice ('ai', 'adk'); give it once.");
    expect(() => parseCommandArgs('report', ['--json', 'a', '--json', 'b', '--json=c'], options)).toThrow(/--json is given 3 times/);
  });

  it('leaves a flag given twice as given', () => {
    expect(parseCommandArgs('run', ['--quiet', '--quiet'], options).values.quiet).toBe(true);
  });

  it.each([
    [['run', '--timeout', '5', '--timeout', '6']],
    [['replay', 'x.json', '--cell', 'a', '--cell', 'b']],
    [['diff', 'a.json', 'b.json', '--fail-on', 'new-failures', '--fail-on', 'new-failures']],
    [['model', '--turns', '2', '--turns', '3']],
  ])('exits 2 before doing anything: %j', async (argv) => {
    const { code, out, err } = await cli(...argv);
    expect(code).toBe(2);
    expect(out).toBe('');
    expect(err).toMatch(/^approval-conformance: \w+: --[a-z-]+ is given twice \('[^']+', '[^']+'\); give it once\.\n$/);
  });
});

describe('a negative number for an option', () => {
  it('is the value, not an ambiguous argument', () => {
    expect(parseCommandArgs('run', ['--timeout', '-5', '--json', 'x'], options).values).toMatchObject({ timeout: '-5', json: 'x' });
    expect(parseCommandArgs('run', ['--timeout=-5'], options).values.timeout).toBe('-5');
  });

  it.each([
    [['run', '--timeout', '-5'], "--timeout takes a whole number of seconds, at least 1, got '-5'."],
    [['run', '--jobs', '-2'], "--jobs takes a whole number of at least 1, got '-2'."],
    [['run', '--sampled', '-10'], "--sampled takes a whole number of at least 1, got '-10'."],
    [['run', '--seed', '-1'], "--seed takes a whole number of at least 0, got '-1'."],
    [['run', '--max-schedules', '-0.5'], "--max-schedules takes a whole number of at least 1, got '-0.5'."],
    [['audit', '--timeout', '-5'], "--timeout takes a whole number of seconds, at least 1, got '-5'."],
    [['audit', '--budget', '-60'], "--budget takes a whole number of seconds, at least 1, got '-60'."],
    [['model', '--turns', '-1'], "--turns takes a whole number of at least 1, got '-1'."],
  ])('says what it must be: %j', async (argv, message) => {
    const { code, out, err } = await cli(...argv);
    expect(code).toBe(2);
    expect(out).toBe('');
    expect(err).toBe(`approval-conformance: ${message}\n`);
  });

  it('a missing value, or one that starts with a dash, says so and how to give it', () => {
    expect(() => parseCommandArgs('run', ['--timeout', '--quiet'], options)).toThrow("run: --timeout needs a value, but '--quiet' follows it. See 'approval-conformance run --help'.");
    expect(() => parseCommandArgs('run', ['--json', '-x'], options)).toThrow(
      "run: --json needs a value, and '-x' reads as an option; to give a value that starts with '-', write --json=-x. See 'approval-conformance run --help'.",
    );
    expect(parseCommandArgs('run', ['--json=-x'], options).values.json).toBe('-x');
  });

  it('after --, is a positional like any other', () => {
    expect(parseCommandArgs('run', ['--', '--timeout', '-5'], options).positionals).toEqual(['--timeout', '-5']);
  });
});
