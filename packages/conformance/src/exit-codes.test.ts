// The exit codes are the same for every command (0 done, 1 a gate tripped, 2 usage or input error, 3 could not
// complete), and every command's --help says so. One row per command and code it can give.
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';

await (await import('./registry.js')).useAdapters([fileURLToPath(new URL('./matrix/broken.fixtures.ts', import.meta.url))]);
const { cli } = await import('./run-io.fixtures.js');
const { COMMANDS } = await import('./main.js');

const PUBLISHED = fileURLToPath(new URL('../../../reports/results.json', import.meta.url));
const ONE = ['--framework', 'reference', '--wiring', 'after-snapshot', '--store', 'memory', '--scenario', 'double-resume', '--quiet'];
const CELL = 'reference@0.0.0/after-snapshot/memory/double-resume/at-most-once';
let dir: string;
const at = (name: string) => join(dir, name);

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ac-exit-'));
  expect((await cli('run', ...ONE, '--json', at('one.json'))).code).toBe(0);
  expect((await cli('run', ...ONE, '--shard', '1/1', '--json', at('shard.json'))).code).toBe(0);
  const edited = JSON.parse(await readFile(at('one.json'), 'utf8'));
  edited.cells.find((c: { id: string }) => c.id === CELL).counterexample.story[1] = 'something else happened';
  await writeFile(at('edited.json'), JSON.stringify(edited));
  const passing = JSON.parse(await readFile(at('one.json'), 'utf8'));
  for (const cell of passing.cells) Object.assign(cell, { verdict: 'pass', exhaustive: true, counterexample: undefined });
  await writeFile(at('passing.json'), JSON.stringify(passing));
  await writeFile(at('corrupt.json'), '{"schemaVersion": 2, "cells": [');
});

const BISECT = ['--framework', 'flipping', '--scenario', 'double-resume', '--property', 'at-most-once', '--quiet'];

const ROWS: [command: string, code: number, args: () => string[]][] = [
  ['run', 0, () => ONE],
  ['run', 1, () => [...ONE, '--fail-on', 'fail']],
  ['run', 2, () => [...ONE, '--bogus']],
  ['run', 2, () => ['--framework', 'flipping@9.9.9', '--scenario', 'double-resume', '--json', at('never-written.json'), '--quiet']],
  ['run', 3, () => ['--framework', 'uninstallable', '--scenario', 'double-resume', '--quiet']],
  ['model', 0, () => ['--turns', '1']],
  ['model', 2, () => ['--turns', 'x']],
  ['replay', 0, () => [at('one.json'), '--cell', CELL]],
  ['replay', 1, () => [at('edited.json'), '--cell', CELL]],
  ['replay', 2, () => [at('corrupt.json')]],
  ['regression', 0, () => [at('one.json'), '--cell', CELL, '--out', at('regression.test.ts')]],
  ['regression', 2, () => [at('one.json'), '--cell', 'no/such/cell']],
  ['repro', 0, () => [PUBLISHED, '--cell', 'langgraph@1.7.3/interrupt-node/memory/double-resume/at-most-once', '--out', at('repro')]],
  ['repro', 2, () => [PUBLISHED, '--cell', 'langgraph@1.7.3/guarded-interrupt-node/memory/double-resume/at-most-once']],
  ['repro', 3, () => [at('one.json'), '--cell', CELL]],
  ['diff', 0, () => [at('one.json'), at('one.json'), '--exit-code']],
  ['diff', 1, () => [at('passing.json'), at('one.json'), '--fail-on', 'new-failures']],
  ['diff', 2, () => [at('one.json')]],
  ['bisect', 0, () => BISECT],
  ['bisect', 2, () => ['--framework', 'flipping']],
  ['bisect', 3, () => [...BISECT, '--range', '>=1.0.3 <=1.0.4']],
  ['merge', 0, () => [at('shard.json'), '--out', at('merged')]],
  ['merge', 2, () => [at('one.json'), '--out', at('not-merged')]],
  ['report', 0, () => [at('one.json'), '--out', at('report')]],
  ['report', 2, () => [at('corrupt.json'), '--out', at('no-report')]],
  ['audit', 0, () => ['--framework', 'reference', '--cells', '1', '--seed', '5', '--cap', '50', '--samples', '5', '--quiet']],
  ['audit', 1, () => ['--framework', 'misdeclared', '--cells', '1', '--quiet']],
  ['audit', 2, () => ['--cells', '0']],
  ['audit', 3, () => ['--framework', 'uninstallable', '--quiet']],
  ['init-adapter', 0, () => ['acme', at('init-acme')]],
  ['init-adapter', 2, () => ['Acme', at('init-bad')]],
];

describe('exit codes', () => {
  it.each(ROWS)('%s exits %i', async (command, code, args) => {
    const result = await cli(command, ...args());
    expect(result.code, result.err).toBe(code);
    // Anything but 0 says why on stderr, in one line.
    if (code === 2 || code === 3) expect(result.err).toMatch(/^approval-conformance: [^\n]+\n$/m);
    // A usage error writes nothing.
    if (code === 2) expect(existsSync(at('never-written.json'))).toBe(false);
  });

  it('names a version the registry does not list as the mistake it is', async () => {
    expect((await cli('run', '--framework', 'flipping@9.9.9', '--quiet')).err).toBe(
      'approval-conformance: flipping@9.9.9 is not published (the newest is 1.0.9). Name a published version, a range (flipping@1) or flipping@latest; pinned by its adapter: 1.0.9.\n',
    );
  });

  it('the API resolves a run whose version would not install (exit 3) to its error cells, and rejects bad options (2)', async () => {
    const { run } = await import('./api.js');
    const results = await run({ framework: 'uninstallable', scenario: 'double-resume' });
    expect(results.cells.map((c) => c.verdict)).toEqual(['error', 'error', 'error']);
    await expect(run({ framework: 'reference', scenario: 'no-such-scenario' })).rejects.toMatchObject({ exitCode: 2 });
  });

  it('every command gives each code it can, and its --help lists them', async () => {
    for (const command of COMMANDS) {
      expect(ROWS.filter(([name]) => name === command.name).map(([, code]) => code), command.name).toContain(0);
      const { out } = await cli(command.name, '--help');
      expect(out, command.name).toMatch(/Exit codes \(the same for every command\):\n {2}0 {2}done\n {2}1 {2}a gate tripped: [\s\S]+?\n {2}2 {2}usage or input error/);
      expect(out, command.name).toMatch(/\n {2}3 {2}could not complete: /);
    }
    expect((await cli('--help')).out).toContain('Exit codes (the same for every command)');
  });
});
