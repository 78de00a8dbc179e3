import { COMMANDS } from './main.js';
import { describe, expect, it } from 'vitest';
import { main } from './main.js';

async function run(...argv: string[]) {
  let out = '';
  let err = '';
  const code = await main(argv, { out: (t) => (out += t), err: (t) => (err += t) });
  return { code, out, err };
}

describe('approval-conformance model', () => {
  it('prints all 12 rows with both property columns', async () => {
    const { code, out, err } = await run('model');
    expect(code).toBe(0);
    expect(err).toBe('');
    const rows = out.split('\n').filter((l) => /^(after|before|cas) /.test(l));
    expect(rows).toHaveLength(12);
    expect(rows[0]).toMatch(/^after\s+snapshot\s+no\s+27\s+violated in 7 states\s+violated in 4 states$/);
    expect(rows[7]).toMatch(/^before\s+fresh\s+yes\s+20\s+holds\s+holds$/);
  });

  it('prints the documented JSON shape, traces only on violations', async () => {
    const { code, out } = await run('model', '--json');
    expect(code).toBe(0);
    const table = JSON.parse(out);
    expect(table.turns).toBe(2);
    expect(table.rows).toHaveLength(12);
    expect(table.rows[0]).toMatchObject({
      spendMode: 'after',
      freshView: false,
      serialize: false,
      statesExplored: 27,
      properties: {
        'at-most-once': { verdict: 'violated', traceStates: 7 },
        'no-resurrection': { verdict: 'violated', traceStates: 4 },
      },
    });
    expect(table.rows[0].properties['at-most-once'].trace).toHaveLength(7);
    const cas = table.rows.find((r: { spendMode: string }) => r.spendMode === 'cas');
    expect(cas.properties['at-most-once']).toEqual({ verdict: 'holds' });
  });

  it('takes --turns 3 and keeps twelve rows', async () => {
    const { code, out } = await run('model', '--turns', '3', '--json');
    expect(code).toBe(0);
    const table = JSON.parse(out);
    expect(table.turns).toBe(3);
    expect(table.rows).toHaveLength(12);
    expect(table.rows[0].statesExplored).toBe(155);
  });

  it('prints each violation step by step with --trace', async () => {
    const { out } = await run('model', '--trace');
    expect(out).toContain('before-fresh: at-most-once violated in 9 states');
    expect(out).toContain('   1. init (record unspent, eff=0)');
    expect(out).toContain('t2 effect (eff=2)');
  });
});

describe('the command line', () => {
  it('runs the runner when no command is given', async () => {
    const { code, out } = await run('--framework', 'reference', '--wiring', 'cas-fresh', '--store', 'memory', '--scenario', 'double-resume', '--quiet', '--tables');
    expect(code).toBe(0);
    expect(out).toMatch(/cas-fresh\s+memory\s+pass \(\d+ schedules\)/);
  });

  it('has --help at the top and on each command', async () => {
    expect((await run('--help')).out).toMatch(/^Usage: approval-conformance <command>/);
    expect((await run('model', '--help')).out).toMatch(/^Usage: approval-conformance model/);
    expect((await run('help', 'repro')).out).toMatch(/^Usage: approval-conformance repro/);
    // Every command shows how it is used, and its options line up.
    for (const command of COMMANDS) {
      expect(command.help, command.name).toMatch(/\nExamples:\n {2}approval-conformance /);
      const options = command.help.split('\nOptions:\n')[1]?.split('\n\n')[0] ?? '';
      // Where each option's description starts (an option too long for the column has it on the next line).
      const starts = options
        .split('\n')
        .filter((l) => /^ {2}-/.test(l))
        .flatMap((l) => /^ {2}\S+(?: \S+)*? {2,}(?=\S)/.exec(l)?.[0].length ?? []);
      expect(new Set(starts).size, `${command.name}'s options`).toBeLessThanOrEqual(1);
    }
    expect(await run('help', 'frob')).toMatchObject({ code: 2, err: expect.stringContaining("no command 'frob'") });
  });

  it.each([
    [['model', '--turns', '0'], /--turns takes a whole number of at least 1, got '0'/],
    [['model', '--turns', 'abc'], /--turns takes a whole number of at least 1, got 'abc'/],
    [['model', '--turns', '2.5'], /got '2.5'/],
    [['model', '--turns', '99'], /--turns is at most/],
    [['model', '--turns'], /--turns/],
    [['model', '--frob'], /Unknown option '--frob'/],
    [['model', 'extra'], /takes no arguments/],
    [['frob'], /unknown command 'frob'/],
    [['--turns', '0'], /run: Unknown option '--turns'/],
  ])('rejects %j with one line on stderr and exit code 2', async (argv, message) => {
    const { code, out, err } = await run(...argv);
    expect(code).toBe(2);
    expect(out).toBe('');
    const lines = err.trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(message);
    expect(err).not.toMatch(/\n\s+at /);
  });
});

describe('the top-level help', () => {
  it('lists every command with its summary apart from its name, however long the name', async () => {
    const { code, out } = await run('--help');
    expect(code).toBe(0);
    for (const command of COMMANDS) expect(out).toMatch(new RegExp(`^  ${command.name} {2,}${command.summary.slice(0, 20).replace(/[()]/g, '\\$&')}`, 'm'));
  });
});
