// The runner survives what frameworks do wrong: a version that will not install or import, a unit that crashes its
// worker, one that hangs, and a run killed midway. In every case no cell is lost and none turns into a pass.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { beforeEach, describe, expect, it } from 'vitest';
import { skipStore, testPostgres } from '@approval-conformance/testkit';

await (await import('../registry.js')).useAdapters([fileURLToPath(new URL('./broken.fixtures.ts', import.meta.url))]);
const { cli } = await import('../run-io.fixtures.js');

interface Cell {
  id: string;
  framework: string;
  version: string;
  wiring: string;
  verdict: string;
  reason?: string;
}
const cellsOf = async (file: string) => (JSON.parse(await readFile(file, 'utf8')) as { cells: Cell[] }).cells;

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ac-isolation-'));
  process.env['UNRELIABLE_LOG'] = join(dir, 'units.log');
  delete process.env['UNRELIABLE_HANG'];
  delete process.env['UNRELIABLE_POSTGRES'];
});

const ARGS = ['--scenario', 'double-resume', '--quiet'];

/**
 * The plain `run --framework unreliable` (every wiring, nothing set to hang), run once for the whole file: each run
 * forks a worker through tsx, and another after the crash unit, which is most of its CPU. The tests that only need
 * its results, or a complete results file to resume from, read a copy of it; none of them changes the shared file.
 */
let plainRun: Promise<{ code: number; text: string }> | undefined;
async function plainRunInto(file: string) {
  plainRun ??= (async () => {
    const shared = join(await mkdtemp(join(tmpdir(), 'ac-isolation-plain-')), 'results.json');
    const { code } = await cli('run', '--framework', 'unreliable', ...ARGS, '--json', shared);
    return { code, text: await readFile(shared, 'utf8') };
  })();
  const { code, text } = await plainRun;
  await writeFile(file, text);
  return code;
}

describe('the runner, when a framework goes wrong', () => {
  it('turns a version that will not install, or will not import, into error cells with the reason', async () => {
    const file = join(dir, 'results.json');
    const { code, out, err } = await cli('run', '--framework', 'uninstallable,unimportable,unreliable', ...ARGS, '--json', file);
    // The run could not complete: exit 3, and the one line says which versions.
    expect(code).toBe(3);
    expect(err).toMatch(/the run could not complete: uninstallable@1\.0\.0, unimportable@1\.0\.0 would not install or import \(exit 3\)/);
    const cells = await cellsOf(file);
    const of = (name: string) => cells.filter((c) => c.id.startsWith(`${name}@`));
    expect(of('uninstallable').map((c) => c.verdict)).toEqual(['error', 'error', 'error']);
    expect(of('uninstallable')[0]!.reason).toBe('could not install uninstallable@1.0.0: npm install failed: 404 Not Found');
    expect(of('unimportable').every((c) => c.verdict === 'error' && /Unexpected token/.test(c.reason ?? ''))).toBe(true);
    // The run went on: the working version's cells are all there.
    expect(of('unreliable').filter((c) => c.wiring === 'ok').map((c) => c.verdict)).toEqual(['pass', 'pass', 'pass']);
    expect(out).toMatch(/uninstallable@1\.0\.0\s+3\s+3/);
  });

  it('gives the unit that crashed its worker error cells, and runs the rest in a new worker', async () => {
    const file = join(dir, 'results.json');
    expect(await plainRunInto(file)).toBe(0);
    const cells = await cellsOf(file);
    const crash = cells.filter((c) => c.wiring === 'crash');
    expect(crash.map((c) => c.verdict)).toEqual(['error', 'error', 'error']);
    expect(crash[0]!.reason).toBe('the worker process exited with code 3');
    expect(cells.filter((c) => c.wiring === 'hang').map((c) => c.verdict)).toEqual(['pass', 'pass', 'pass']);
    // --fail-on error says the same run could not complete (3), --fail-on fail does not (no cell failed).
    expect((await cli('run', '--framework', 'unreliable', ...ARGS, '--fail-on', 'error')).code).toBe(3);
    expect((await cli('run', '--framework', 'unreliable', ...ARGS, '--fail-on', 'fail')).code).toBe(0);
  });

  it('stops a unit that hangs past --timeout, reads it timeout, and goes on', async () => {
    process.env['UNRELIABLE_HANG'] = '1';
    const file = join(dir, 'results.json');
    const { code } = await cli('run', '--framework', 'unreliable', ...ARGS, '--timeout', '2', '--json', file);
    expect(code).toBe(0);
    const cells = await cellsOf(file);
    expect(cells.filter((c) => c.wiring === 'hang').map((c) => [c.verdict, c.reason])).toEqual(
      Array(3).fill(['timeout', 'ran past --timeout 2s; the worker was stopped']),
    );
    expect(cells.filter((c) => c.wiring === 'ok').map((c) => c.verdict)).toEqual(['pass', 'pass', 'pass']);
    expect(cells).toHaveLength(9);
    // The worlds that hung or crashed left their scratch folders; each worker's temporary folder went with it.
    const scratch = [...readFileSync(process.env['UNRELIABLE_LOG']!, 'utf8').matchAll(/^scratch (.+)$/gm)].map((m) => m[1]!);
    expect(scratch.length).toBeGreaterThanOrEqual(2);
    expect(scratch.filter((path) => existsSync(path))).toEqual([]);
  });

  it.skipIf(skipStore('postgres'))('drops the PostgreSQL schemas a stopped worker left behind', async () => {
    process.env['UNRELIABLE_HANG'] = '1';
    process.env['UNRELIABLE_POSTGRES'] = '1';
    const file = join(dir, 'results.json');
    const { code } = await cli('run', '--framework', 'unreliable', ...ARGS, '--wiring', 'hang', '--store', 'postgres', '--timeout', '2', '--json', file);
    expect(code).toBe(0);
    expect((await cellsOf(file)).map((c) => c.verdict)).toEqual(['timeout', 'timeout', 'timeout']);
    // The worker made its world's schema, then hung and was killed; the runner dropped the schema after it.
    const prefixes = readFileSync(process.env['UNRELIABLE_LOG']!, 'utf8').match(/^prefix w_[0-9a-f]{12}_$/gm) ?? [];
    expect(prefixes).toHaveLength(1);
    const client = new pg.Client({ connectionString: testPostgres().url });
    await client.connect();
    const left = await client.query(`SELECT nspname FROM pg_namespace WHERE nspname LIKE $1`, [`${prefixes[0]!.slice(7).replace(/_/g, '\\_')}%`]);
    await client.end();
    expect(left.rows).toEqual([]);
  });

  it('keeps what a killed run finished, and --resume runs only the rest', async () => {
    const file = join(dir, 'results.json');
    const tsx = createRequire(import.meta.url).resolve('tsx');
    const cliPath = fileURLToPath(new URL('../cli.ts', import.meta.url));
    // The first run hangs in its second unit; it is killed (with its worker) once the first unit is on disk.
    const first = spawn(
      process.execPath,
      ['--import', tsx, '--conditions=@approval-conformance/source', cliPath, 'run', '--adapter', fileURLToPath(new URL('./broken.fixtures.ts', import.meta.url)), '--framework', 'unreliable', ...ARGS, '--json', file],
      { detached: true, stdio: 'ignore', env: { ...process.env, UNRELIABLE_HANG: '1' } },
    );
    const exited = new Promise((resolve) => first.on('exit', resolve));
    while (!(existsSync(file) && readFileSync(file, 'utf8').includes('"wiring": "ok"'))) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    process.kill(-first.pid!, 'SIGKILL');
    await exited;
    const kept = await cellsOf(file);
    expect(kept.map((c) => `${c.wiring}:${c.verdict}`)).toEqual(['ok:pass', 'ok:pass', 'ok:pass']);
    // Every world the unit built left a line: as many as its schedules.
    const okWorlds = () => readFileSync(process.env['UNRELIABLE_LOG']!, 'utf8').split('\n').filter((l) => l === 'ok/double-resume').length;
    const before = okWorlds();
    expect(before).toBeGreaterThan(0);

    const { code } = await cli('run', '--framework', 'unreliable', ...ARGS, '--json', file, '--resume');
    expect(code).toBe(0);
    const cells = await cellsOf(file);
    expect(cells.map((c) => `${c.wiring}:${c.verdict}`)).toEqual([
      ...Array(3).fill('ok:pass'),
      ...Array(3).fill('hang:pass'),
      ...Array(3).fill('crash:error'),
    ]);
    // The finished unit was not run again.
    expect(okWorlds()).toBe(before);
  });

  it('resumes with the versions the results planned, or some of them, and refuses to add others', async () => {
    const file = join(dir, 'results.json');
    expect(await plainRunInto(file)).toBe(0);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({ planned: ['unreliable@1.0.0'], complete: true });
    const before = readFileSync(file, 'utf8');
    const added = await cli('run', '--framework', 'flipping@1.0.9,unreliable', ...ARGS, '--json', file, '--resume');
    expect(added).toMatchObject({ code: 2, err: expect.stringMatching(/is a run of unreliable@1\.0\.0; this one adds flipping@1\.0\.9\. Resume it with the --framework it was run with/) });
    expect(readFileSync(file, 'utf8')).toBe(before);
    expect(await cli('run', '--framework', 'unreliable', ...ARGS, '--json', file, '--resume')).toMatchObject({ code: 0 });
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({ planned: ['unreliable@1.0.0'], complete: true });
    // On purpose, --extend adds them.
    expect(await cli('run', '--framework', 'flipping@1.0.9', ...ARGS, '--json', file, '--resume', '--extend')).toMatchObject({ code: 0 });
    expect(JSON.parse(readFileSync(file, 'utf8')).planned).toEqual(['flipping@1.0.9', 'unreliable@1.0.0']);
  });

  it("goes on with one of a wider run's versions, whose wiring list names another framework's too", async () => {
    const file = join(dir, 'results.json');
    expect((await cli('run', '--framework', 'flipping@1.0.9,unreliable', ...ARGS, '--wiring', 'only,ok', '--json', file)).code).toBe(0);
    // The unreliable version's unit left unfinished, as a stopped run leaves it.
    const results = JSON.parse(readFileSync(file, 'utf8')) as { cells: Cell[]; complete?: boolean };
    const { complete: _, ...rest } = results;
    writeFileSync(file, JSON.stringify({ ...rest, cells: results.cells.filter((c) => c.framework !== 'unreliable') }));
    // `only` is flipping's wiring, not unreliable's: for one version that is a typo, but here it is the results' own list.
    const resumed = await cli('run', '--framework', 'unreliable', ...ARGS, '--wiring', 'only,ok', '--json', file, '--resume');
    expect(resumed.err).toBe('');
    expect(resumed).toMatchObject({ code: 0 });
    expect((await cellsOf(file)).map((c) => `${c.framework}:${c.wiring}:${c.verdict}`).filter((c) => c.startsWith('unreliable'))).toEqual(Array(3).fill('unreliable:ok:pass'));
    // Without --resume, one version given another's wiring is still refused.
    expect(await cli('run', '--framework', 'unreliable', ...ARGS, '--wiring', 'only,ok')).toMatchObject({ code: 2, err: expect.stringMatching(/unknown wiring 'only'; choose from ok, hang, crash/) });
  });

  it('adds wirings to the results it continues with --extend, runs only those, and refuses to drop one', async () => {
    const file = join(dir, 'results.json');
    await cli('run', '--framework', 'unreliable', ...ARGS, '--wiring', 'ok', '--json', file);
    const worlds = (wiring: string) => readFileSync(process.env['UNRELIABLE_LOG']!, 'utf8').split('\n').filter((l) => l === `${wiring}/double-resume`).length;
    const okWorlds = worlds('ok');
    expect(okWorlds).toBeGreaterThan(0);
    const before = readFileSync(file, 'utf8');
    // Without --extend, another wiring list is other options.
    const plain = await cli('run', '--framework', 'unreliable', ...ARGS, '--wiring', 'ok,hang', '--json', file, '--resume');
    expect(plain).toMatchObject({ code: 2, err: expect.stringMatching(/was run with other options/) });
    // With it, a list that leaves out a wiring the results ran is still refused, and says which.
    const dropped = await cli('run', '--framework', 'unreliable', ...ARGS, '--wiring', 'hang', '--json', file, '--resume', '--extend');
    expect(dropped).toMatchObject({ code: 2, err: expect.stringMatching(/--extend may add wirings, stores, scenarios, but this run leaves out wirings ok/) });
    expect(readFileSync(file, 'utf8')).toBe(before);
    // A list that adds one: only the new wiring runs, and the results record the longer list.
    expect(await cli('run', '--framework', 'unreliable', ...ARGS, '--wiring', 'ok,hang', '--json', file, '--resume', '--extend')).toMatchObject({ code: 0 });
    expect(worlds('ok')).toBe(okWorlds);
    expect(worlds('hang')).toBeGreaterThan(0);
    const after = JSON.parse(readFileSync(file, 'utf8')) as { options: { wirings: string[] }; cells: Cell[]; complete: boolean };
    expect(after.cells.map((c) => `${c.wiring}:${c.verdict}`)).toEqual([...Array(3).fill('ok:pass'), ...Array(3).fill('hang:pass')]);
    expect(after).toMatchObject({ options: { wirings: ['ok', 'hang'] }, complete: true });
  });

  it('refuses to resume with other options than the results were run with', async () => {
    const file = join(dir, 'results.json');
    expect(await plainRunInto(file)).toBe(0);
    const before = readFileSync(file, 'utf8');
    const { code, err } = await cli('run', '--framework', 'unreliable', ...ARGS, '--max-schedules', '5', '--json', file, '--resume');
    expect(code).toBe(2);
    expect(err).toMatch(/was run with other options .*; resume it with the same ones, or write to a new file/);
    expect(readFileSync(file, 'utf8')).toBe(before);
  });

  it.each([
    ['not JSON', '{"cells": [', /is not JSON/],
    ['foreign', '{"name": "some-package"}', /is not a results file/],
    ['corrupt', '{"schemaVersion": 2, "cells": [{"verdict": "pass"}]}', /has a cell without an id or a verdict; it is corrupt/],
  ])('refuses to resume from a %s file with one clear line', async (_kind, text, message) => {
    const file = join(dir, 'results.json');
    const { writeFile } = await import('node:fs/promises');
    await writeFile(file, text);
    const { code, err, out } = await cli('run', '--framework', 'unreliable', ...ARGS, '--json', file, '--resume');
    expect(code).toBe(2);
    expect(out).toBe('');
    expect(err.trim().split('\n')).toHaveLength(1);
    expect(err).toMatch(message);
    expect(readFileSync(file, 'utf8')).toBe(text);
  });
});
