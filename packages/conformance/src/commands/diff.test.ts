import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cell, failing, results } from '../results.fixtures.js';
import { cli } from '../run-io.fixtures.js';

async function files(a: object, b: object) {
  const dir = await mkdtemp(join(tmpdir(), 'ac-diff-'));
  const [fa, fb] = [join(dir, 'a.json'), join(dir, 'b.json')];
  await writeFile(fa, JSON.stringify(a));
  await writeFile(fb, JSON.stringify(b));
  return [fa, fb] as const;
}

describe('approval-conformance diff', () => {
  it('lists the cells whose verdict changed, and the cells one file lacks', async () => {
    const [a, b] = await files(
      results([cell({ version: '6.0.0', verdict: 'pass' }), cell({ version: '6.0.0', verdict: 'pass', store: 'sqlite' })]),
      results([failing('6.0.0'), cell({ version: '6.0.0', verdict: 'pass', store: 'sqlite' }), cell({ version: '6.0.0', verdict: 'error', wiring: 'signed-approval', reason: 'the worker process exited with code 3' })]),
    );
    const { code, out } = await cli('diff', a, b);
    expect(code).toBe(0);
    expect(out).toContain('~ ai@6.0.0/native-approval/memory/double-resume/at-most-once: pass (18 schedules) → fail (4 steps)');
    expect(out).toContain('+ ai@6.0.0/signed-approval/memory/double-resume/at-most-once: error (only in B)');
    expect(out).not.toContain('sqlite');
    expect(out).toContain('1 verdict changed, 1 cell in one file only.');
  });

  it('compares one version with another with --across-versions', async () => {
    const [a, b] = await files(results([cell({ version: '6.0.0', verdict: 'pass' })]), results([failing('6.0.326')]));
    const { out } = await cli('diff', a, b, '--across-versions');
    // B's cell, by the id replay and repro take, and the version A's was in.
    expect(out).toContain('~ ai@6.0.326/native-approval/memory/double-resume/at-most-once: pass (18 schedules) in A (ai@6.0.0) → fail (4 steps)');
    expect((await cli('diff', a, b)).out).toMatch(/only in A[\s\S]*only in B/);
  });

  it('names a version one file lacks altogether once, with its verdicts counted', async () => {
    const both = cell({ version: '1.7.3', verdict: 'pass', store: 'sqlite' });
    const onPostgres = { ...both, store: 'postgres', id: both.id.replace('/sqlite/', '/postgres/') };
    const [a, b] = await files(
      results([
        both,
        cell({ version: '1.7.3', verdict: 'pass', store: 'sqlite', wiring: 'signed-approval' }),
        cell({ version: '6.0.0', verdict: 'pass', store: 'sqlite' }),
        cell({ version: '6.0.0', verdict: 'not-applicable', store: 'sqlite', wiring: 'signed-approval', reason: 'no such wiring here' }),
        cell({ version: '6.0.0', verdict: 'pass', store: 'sqlite', wiring: 'cookbook-hitl' }),
      ]),
      results([onPostgres, cell({ version: '7.0.0', verdict: 'error', store: 'postgres', reason: 'the worker process exited with code 3' })]),
    );
    const { code, out } = await cli('diff', a, b, '--across-stores', 'sqlite,postgres', '--exit-code');
    expect(out).toBe(
      [
        '- ai@1.7.3/signed-approval/sqlite/double-resume/at-most-once: pass (18 schedules) (only in A)',
        '- ai@6.0.0: 3 cells (2 pass, 1 n/a), only in A; B has none of them on postgres',
        // A single cell reads as itself.
        '+ ai@7.0.0/native-approval/postgres/double-resume/at-most-once: error (only in B)',
        '',
        '0 verdicts changed, 5 cells in one file only.',
        '',
      ].join('\n'),
    );
    expect(code).toBe(1);
    // Across versions the line names the version the other file lacks.
    const [c, d] = await files(results([failing('6.0.0')]), results([{ ...failing('6.0.0'), framework: 'x', id: 'x@1.0.0/w/memory/double-resume/at-most-once', version: '1.0.0', wiring: 'w' }, { ...failing('6.0.0'), framework: 'x', id: 'x@1.0.0/w/memory/double-resume/binding', version: '1.0.0', wiring: 'w', property: 'binding' }]));
    expect((await cli('diff', c, d, '--across-versions')).out).toContain('+ x@1.0.0: 2 cells (2 fail), only in B; A has none of them\n');
  });

  it('lists the cells whose counts moved with --counts', async () => {
    const pass = cell({ version: '6.0.0', verdict: 'pass' });
    const [a, b] = await files(results([pass, failing('6.0.1')]), results([{ ...pass, schedules: 20 }, failing('6.0.1')]));
    expect((await cli('diff', a, b)).out).toBe('No verdict changed.\n');
    const { code, out } = await cli('diff', a, b, '--counts', '--exit-code');
    expect(out).toBe('= ai@6.0.0/native-approval/memory/double-resume/at-most-once: pass (18 schedules), schedules 18 → 20\n\n0 verdicts changed, 1 with other counts, 0 cells in one file only.\n');
    expect(code).toBe(1);
    const longer = { ...failing('6.0.1'), counterexample: { ...failing('6.0.1').counterexample!, steps: 5 } };
    const [c, d] = await files(results([failing('6.0.1')]), results([longer]));
    expect((await cli('diff', c, d, '--counts')).out).toContain('fail (4 steps), steps 4 → 5\n');
    expect((await cli('diff', c, c, '--counts', '--exit-code'))).toMatchObject({ code: 0, out: 'No verdict or count changed.\n' });
  });

  it('says when nothing changed', async () => {
    const [a, b] = await files(results([failing('7.0.0')]), results([failing('7.0.0')]));
    expect((await cli('diff', a, b)).out).toBe('No verdict changed.\n');
  });

  it('refuses bad input with one line', async () => {
    const [a] = await files(results([cell({ version: '6.0.0', verdict: 'pass' })]), results([]));
    expect(await cli('diff', a)).toMatchObject({ code: 2, err: expect.stringMatching(/diff takes two results files/) });
    const two = await files(results([cell({ version: '6.0.0', verdict: 'pass' }), cell({ version: '6.0.1', verdict: 'pass' })]), results([cell({ version: '6.0.0', verdict: 'pass' })]));
    const across = await cli('diff', two[0], two[1], '--across-versions');
    expect(across.code).toBe(2);
    expect(across.err).toMatch(/holds ai\/native-approval\/memory\/double-resume\/at-most-once for more than one version/);
  });

  it('compares one store with another with --across-stores, and fails on a change with --exit-code', async () => {
    const sqlite = [cell({ version: '1.7.3', verdict: 'pass', store: 'sqlite' }), cell({ version: '1.7.3', verdict: 'pass', store: 'memory' })];
    const [a, b] = await files(results(sqlite), results([...sqlite, { ...failing('1.7.3'), store: 'postgres', id: 'ai@1.7.3/native-approval/postgres/double-resume/at-most-once' }]));
    const { code, out } = await cli('diff', a, b, '--across-stores', 'sqlite,postgres', '--exit-code');
    expect(code).toBe(1);
    expect(out).toBe(
      '~ ai@1.7.3/native-approval/postgres/double-resume/at-most-once: pass (18 schedules) in A (on sqlite) → fail (4 steps)\n\n1 verdict changed, 0 cells in one file only.\n' +
        `The counterexample of the first cell that got worse: approval-conformance replay ${b} --cell ai@1.7.3/native-approval/postgres/double-resume/at-most-once\n` +
        `As a standalone script: approval-conformance repro ${b} --cell ai@1.7.3/native-approval/postgres/double-resume/at-most-once --out repro\n`,
    );
    // One file can hold both stores.
    expect((await cli('diff', b, b, '--across-stores', 'sqlite,sqlite', '--exit-code')).code).toBe(0);
    // --new-ok: a cell only in B is listed, but does not trip --exit-code; one only in A still does.
    const [base, grown] = await files(results([cell({ version: '6.0.0', verdict: 'pass' })]), results([cell({ version: '6.0.0', verdict: 'pass' }), cell({ version: '6.0.0', verdict: 'pass', wiring: 'signed-approval' })]));
    const added = await cli('diff', base, grown, '--exit-code', '--new-ok');
    expect(added).toMatchObject({ code: 0, out: expect.stringContaining('+ ai@6.0.0/signed-approval/memory/double-resume/at-most-once: pass') });
    expect((await cli('diff', grown, base, '--exit-code', '--new-ok')).code).toBe(1);
    expect(await cli('diff', a, b, '--across-stores', 'sqlite')).toMatchObject({ code: 2, err: expect.stringMatching(/two stores/) });
    expect(await cli('diff', a, b, '--across-stores', 'sqlite,mysql')).toMatchObject({ code: 2, err: expect.stringMatching(/no cell on store 'mysql'/) });
  });

  it('exits 1 with --fail-on new-failures only when a cell got worse', async () => {
    const pass = cell({ version: '6.0.0', verdict: 'pass' });
    const sqlite = cell({ version: '6.0.0', verdict: 'pass', store: 'sqlite' });
    const error = (c: typeof pass) => ({ ...c, verdict: 'error' as const, reason: 'the worker process exited with code 3' });
    const fixed = await files(results([failing('6.0.0'), sqlite]), results([pass, sqlite]));
    expect(await cli('diff', ...fixed, '--fail-on', 'new-failures')).toMatchObject({ code: 0, out: expect.stringContaining('No cell got worse.') });
    const broke = await files(results([pass, sqlite]), results([failing('6.0.0'), error(sqlite)]));
    const worse = await cli('diff', ...broke, '--fail-on', 'new-failures');
    expect(worse.code).toBe(1);
    expect(worse.out).toContain('2 cells got worse (2 whose verdict changed, 0 only in B): ai@6.0.0/native-approval/memory/double-resume/at-most-once, ai@6.0.0/native-approval/sqlite/double-resume/at-most-once.');
    // It ends with the command that shows the first one's counterexample; replay takes the id as printed.
    expect(worse.out).toContain(`replay ${broke[1]} --cell ai@6.0.0/native-approval/memory/double-resume/at-most-once\n`);
    const added = await files(results([sqlite]), results([sqlite, failing('6.0.0')]));
    const onlyNew = await cli('diff', ...added, '--fail-on', 'new-failures');
    expect(onlyNew.code).toBe(1);
    // Counted as the summary counts them: no verdict changed, one cell is new and fails.
    expect(onlyNew.out).toContain('0 verdicts changed, 1 cell in one file only.\n1 cell got worse (0 whose verdict changed, 1 only in B)');
    expect(onlyNew.out).toContain('The counterexample of the first cell that got worse: ');
    // With --new-ok a new cell is expected: no command points at it as worse.
    expect((await cli('diff', ...added, '--new-ok')).out).not.toContain('got worse');
    const same = await files(results([failing('6.0.0')]), results([error(failing('6.0.0'))]));
    expect((await cli('diff', ...same, '--fail-on', 'new-failures')).code).toBe(0);
    expect(await cli('diff', ...same, '--fail-on', 'fail')).toMatchObject({ code: 2, err: expect.stringMatching(/--fail-on takes new-failures/) });
  });

  it('warns when the two runs covered other scenarios, wirings, stores or properties', async () => {
    const options = { scenarios: ['double-resume', 'replay', 'two-approvals'], mode: 'exhaustive', seed: 1, reduce: true, checkContents: true };
    const [a, b] = await files(
      { ...results([cell({ version: '6.0.0', verdict: 'pass' })]), options },
      { ...results([cell({ version: '6.0.0', verdict: 'pass' })]), options: { ...options, scenarios: ['double-resume', 'replay'] } },
    );
    const narrow = await cli('diff', a, b, '--across-versions', '--fail-on', 'new-failures');
    expect(narrow.code).toBe(0);
    expect(narrow.err).toContain("Warning: the two runs' scopes differ (scenarios: A ran double-resume, replay, two-approvals; B ran double-resume, replay).");
    expect((await cli('diff', a, a)).err).toBe('');
  });
});
