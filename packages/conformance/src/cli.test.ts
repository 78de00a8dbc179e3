// The CLI as a process: exit codes and streams as a user sees them.
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { cell, failing, results } from './results.fixtures.js';

const packageDir = fileURLToPath(new URL('..', import.meta.url));

function cli(...argv: string[]) {
  const result = spawnSync(
    process.execPath,
    ['--import', 'tsx', '--conditions=@approval-conformance/source', 'src/cli.ts', ...argv],
    { cwd: packageDir, encoding: 'utf8' },
  );
  return { code: result.status, out: result.stdout, err: result.stderr };
}

describe('the approval-conformance process', () => {
  it('prints the model table as JSON on stdout and exits 0', () => {
    const { code, out, err } = cli('model', '--json');
    expect(err).toBe('');
    expect(code).toBe(0);
    expect(JSON.parse(out).rows).toHaveLength(12);
  });

  it('exits 2 with one line on stderr and nothing on stdout for bad input', () => {
    const { code, out, err } = cli('model', '--turns', 'abc');
    expect(code).toBe(2);
    expect(out).toBe('');
    expect(err).toBe("approval-conformance: --turns takes a whole number of at least 1, got 'abc'.\n");
  });

  it('stops printing, but not working, when the reader closes the pipe early, as `| head` does', async () => {
    // A diff that finds a change exits 1 with --exit-code: the closed pipe must not turn that into 0.
    const dir = await mkdtemp(join(tmpdir(), 'ac-cli-'));
    const [a, b] = [join(dir, 'a.json'), join(dir, 'b.json')];
    await writeFile(a, JSON.stringify(results([cell({ version: '1.0.0', verdict: 'pass' })])));
    await writeFile(b, JSON.stringify(results([failing('1.0.0')])));
    const child = spawn(process.execPath, ['--import', 'tsx', '--conditions=@approval-conformance/source', 'src/cli.ts', 'diff', a, b, '--exit-code'], {
      cwd: packageDir,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.destroy();
    let err = '';
    child.stderr.on('data', (chunk) => (err += chunk));
    const [code] = await once(child, 'close');
    expect(err).toBe('');
    expect(code).toBe(1);
  });

  it('on Ctrl-C keeps what finished, says how many units and the command that resumes, and --resume says what it keeps', async () => {
    const file = join(await mkdtemp(join(tmpdir(), 'ac-cli-')), 'run.json');
    // Three scenarios on both stores: enough units (78) that the run is still going when the first are saved.
    const args = ['run', '--framework', 'reference', '--store', 'memory,sqlite', '--scenario', 'double-resume,tamper,crash-restart', '--jobs', '1', '--json', file];
    const env = { ...process.env, npm_lifecycle_event: '', npm_lifecycle_script: '' };
    const child = spawn(process.execPath, ['--import', 'tsx', '--conditions=@approval-conformance/source', 'src/cli.ts', ...args], {
      cwd: packageDir,
      env,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let err = '';
    child.stderr.on('data', (chunk) => (err += chunk));
    const closed = once(child, 'close');
    // Interrupt once the first unit is saved.
    for (;;) {
      const saved = await readFile(file, 'utf8').then((text) => (JSON.parse(text) as { cells: unknown[] }).cells.length, () => 0);
      if (saved > 0) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    child.kill('SIGINT');
    const [code] = await closed;
    expect(code).toBe(130);
    expect(err).toMatch(/\nInterrupted\. \d+ finished units? (is|are) saved in .*run\.json; the units that were running will run again, from their last checkpoints\. Resume with:\n  approval-conformance run --framework reference --store memory,sqlite --scenario double-resume,tamper,crash-restart --jobs 1 --json \S+run\.json --resume\n$/);
    const saved = JSON.parse(await readFile(file, 'utf8')) as { cells: { verdict: string }[] };
    expect(saved.cells.filter((c) => c.verdict === 'error')).toEqual([]);

    const resumed = spawnSync(process.execPath, ['--import', 'tsx', '--conditions=@approval-conformance/source', 'src/cli.ts', ...args, '--resume'], { cwd: packageDir, env, encoding: 'utf8' });
    expect(resumed.status).toBe(0);
    expect(resumed.stderr).toMatch(/Resuming .*run\.json: keeps \d+ finished units?; \d+ left in the versions begun\./);
    const all = JSON.parse(await readFile(file, 'utf8')) as { cells: { verdict: string }[]; complete?: boolean };
    expect(all.complete).toBe(true);
    expect(all.cells.filter((c) => c.verdict === 'error')).toEqual([]);
  });
});
