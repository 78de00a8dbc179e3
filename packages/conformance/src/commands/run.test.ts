import { mkdtemp, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { cli } from '../run-io.fixtures.js';

/**
 * One quiet run of two reference wirings with --junit, for the file: the JUnit test reads the XML it wrote, the
 * summary test the lines it printed (--junit only adds a file). Each run forks a worker through tsx, most of its CPU.
 */
let twoWirings: Promise<{ code: number; out: string; xml: string }> | undefined;
function twoWiringsRun() {
  twoWirings ??= (async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ac-junit-'));
    const { code, out } = await cli(
      'run', '--framework', 'reference', '--wiring', 'after-snapshot,cas-fresh', '--store', 'memory', '--scenario', 'double-resume', '--junit', join(dir, 'junit.xml'), '--quiet',
    );
    return { code, out, xml: await readFile(join(dir, 'junit.xml'), 'utf8') };
  })();
  return twoWirings;
}

describe('approval-conformance run', () => {
  it('says as each unit ends what it explored with --verbose', async () => {
    const { code, err } = await cli('run', '--framework', 'reference', '--wiring', 'after-snapshot,cas-fresh', '--store', 'memory', '--scenario', 'double-resume', '--verbose');
    expect(code).toBe(0);
    expect(err).toMatch(/^\[0\/2 done\] running reference@0\.0\.0 after-snapshot memory double-resume · /m);
    expect(err).toMatch(/^\[1\/2 done\] running reference@0\.0\.0 cas-fresh memory double-resume · /m);
    expect(err).toMatch(/^  done reference@0\.0\.0 after-snapshot memory double-resume: \d+ schedules? in \d+\.\d s \(at-most-once fail, no-resurrection fail, fresh-view fail\)$/m);
    expect(err).toMatch(/^  done reference@0\.0\.0 cas-fresh memory double-resume: \d+ schedules in \d+\.\d s \(at-most-once pass, /m);
    expect(await cli('run', '--framework', 'reference', '--quiet', '--verbose')).toMatchObject({ code: 2, err: expect.stringMatching(/--quiet and --verbose/) });
  });

  it('writes JUnit XML with --junit: a testcase per cell, a fail as a failure with its story', async () => {
    const { code, xml } = await twoWiringsRun();
    expect(code).toBe(0);
    expect(xml.match(/<testcase /g)).toHaveLength(6);
    expect(xml).toMatch(/<testsuite name="reference@0\.0\.0" tests="6" failures="3" errors="0" [^>]*skipped="0"/);
    expect(xml).toMatch(/<failure [^>]*>[^<]*at-most-once/);
  });

  it('writes a Markdown summary with --summary, and appends it to $GITHUB_STEP_SUMMARY', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ac-summary-'));
    const github = join(dir, 'step-summary.md');
    await writeFile(github, 'earlier step\n');
    process.env['GITHUB_STEP_SUMMARY'] = github;
    try {
      const { code } = await cli(
        'run', '--framework', 'reference', '--wiring', 'after-snapshot', '--store', 'memory', '--scenario', 'double-resume', '--summary', join(dir, 'summary.md'), '--quiet',
      );
      expect(code).toBe(0);
    } finally {
      delete process.env['GITHUB_STEP_SUMMARY'];
    }
    const summary = await readFile(join(dir, 'summary.md'), 'utf8');
    expect(summary).toContain('| version | cells | pass | fail | allowed | n/a | error | timeout |');
    expect(summary).toContain('| reference@0.0.0 | 3 |  | 3 |  |  |  |  |');
    expect(summary).toContain('- `reference@0.0.0/after-snapshot/memory/double-resume/at-most-once`: fail (4 steps)');
    expect(await readFile(github, 'utf8')).toBe(`earlier step\n${summary}`);
  });

  it('leads with what each wiring keeps and fails, says the reference fails on purpose, and points to the tables', async () => {
    const { code, out } = await twoWiringsRun();
    expect(code).toBe(0);
    expect(out).toMatch(/^reference@0\.0\.0: 6 cells: 3 pass, 3 fail\.\nThis is the reference runtime, the calibration subject: [\s\S]* fail on purpose/);
    expect(out).toContain('after-snapshot/memory: keeps 0 of 3\n  fails at-most-once: double-resume (4 steps)\n  fails no-resurrection: double-resume (2 steps)\n');
    expect(out).toContain('cas-fresh/memory: keeps all 3\n');
    expect(out).toContain("Every scenario's table: --tables.");
    expect(out.split('\n').length).toBeLessThan(20);
  });

  it('writes reports with --out that `report` writes again the same, to the time of the last cell', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ac-run-out-'));
    const { code } = await cli('run', '--framework', 'reference', '--wiring', 'after-snapshot', '--store', 'memory', '--scenario', 'double-resume', '--out', join(dir, 'run'), '--quiet');
    expect(code).toBe(0);
    const results = JSON.parse(await readFile(join(dir, 'run', 'results.json'), 'utf8')) as { updated: string };
    const written = await readFile(join(dir, 'run', 'README.md'), 'utf8');
    expect(written).toContain(`last cell written ${results.updated}.`);
    // Contents are checked by default, and the report says so.
    expect(written).toContain('Contents were checked: ');
    expect(await cli('report', join(dir, 'run', 'results.json'), '--out', join(dir, 'again'))).toMatchObject({ code: 0 });
    expect(await readFile(join(dir, 'again', 'README.md'), 'utf8')).toBe(written);
  });

  it('changes nothing when --resume finds nothing to run: not the results, their time, nor the reports', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ac-run-resume-'));
    const out = join(dir, 'run');
    const args = ['run', '--framework', 'reference', '--wiring', 'after-snapshot', '--store', 'memory', '--scenario', 'double-resume', '--out', out];
    expect((await cli(...args, '--quiet')).code).toBe(0);
    const snapshot = async () =>
      Object.fromEntries(
        await Promise.all(
          (await readdir(out, { recursive: true })).sort().map(async (f) => {
            const path = join(out, f);
            const info = await stat(path);
            return [f, info.isFile() ? `${info.mtimeMs} ${await readFile(path, 'utf8')}` : 'folder'] as const;
          }),
        ),
      );
    const before = await snapshot();
    const resumed = await cli(...args, '--resume');
    expect(resumed.code).toBe(0);
    expect(resumed.err).toContain(`Nothing to run: ${join(out, 'results.json')} holds every unit of reference@0.0.0.`);
    expect(resumed.out).toContain('Nothing changed:');
    expect(resumed.out).toContain(`report ${join(out, 'results.json')}`);
    expect(await snapshot()).toEqual(before);
    // Reports asked for elsewhere, which this results file never had, are written.
    const elsewhere = join(dir, 'elsewhere');
    const written = await cli(...args.slice(0, -2), '--resume', '--json', join(out, 'results.json'), '--out', elsewhere);
    expect(written.code, written.err).toBe(0);
    expect(written.out).not.toContain('Nothing changed:');
    expect(await readFile(join(elsewhere, 'README.md'), 'utf8')).toContain('last cell written');
  });

  it('prints a verdict table per scenario with --tables, and writes the results JSON', async () => {
    const file = join(await mkdtemp(join(tmpdir(), 'ac-run-')), 'results.json');
    const { code, out, err } = await cli(
      'run', '--framework', 'reference', '--wiring', 'after-snapshot,cas-fresh', '--store', 'memory', '--json', file, '--tables',
    );
    expect(code).toBe(0);
    expect(out).toMatch(/after-snapshot\s+memory\s+fail \(4 steps\)\s+fail \(2 steps\)/);
    expect(out).toMatch(/cas-fresh\s+memory\s+pass \(\d+ schedules\)/);
    expect(err).toMatch(/^\[\d+\/\d+ done\] running reference@\d+\.\d+\.\d+ after-snapshot memory double-resume · /m);

    const results = JSON.parse(await readFile(file, 'utf8'));
    expect(results.schemaVersion).toBe(2);
    expect(results.environment.node).toBe(process.version);
    expect(results.targets).toEqual([
      {
        framework: 'reference',
        version: '0.0.0',
        spec: 'reference',
        packages: {},
        units: 22, // two wirings, each running the eleven default scenarios on memory
        wirings: expect.arrayContaining([{ id: 'cas-fresh', description: expect.any(String) }]),
        // The parts of its units' keys, for --reuse.
        keys: { suite: expect.stringMatching(/^[0-9a-f]{64}$/), adapter: expect.stringMatching(/^[0-9a-f]{64}$/), tree: 'builtin', node: process.version },
      },
    ]);
    expect(results).toMatchObject({ planned: ['reference@0.0.0'], complete: true });
    // The options it ran with, contents checked as by default.
    expect(results.options).toEqual({ scenarios: expect.arrayContaining(['double-resume']), wirings: ['after-snapshot', 'cas-fresh'], stores: ['memory'], mode: 'exhaustive', seed: 1, reduce: true, checkContents: true });
    const amo = results.cells.find((c: { id: string }) => c.id === 'reference@0.0.0/after-snapshot/memory/double-resume/at-most-once');
    expect(amo).toMatchObject({
      framework: 'reference',
      wiring: 'after-snapshot',
      store: 'memory',
      scenario: 'double-resume',
      property: 'at-most-once',
      verdict: 'fail',
      exhaustive: true,
      counterexample: { steps: 4 },
    });
    expect(amo.counterexample.story.length).toBeGreaterThan(4);
    expect(amo.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(amo.counterexample.schedule).toMatch(/^t\d:\d/);
  });

  it("runs a maintainer's local build with file:PATH, marked +local", async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ac-local-'));
    const file = join(dir, 'results.json');
    const build = fileURLToPath(new URL('../../../adapters/ai-sdk/pins/v6/node_modules/ai', import.meta.url));
    const { code, out } = await cli(
      'run', '--framework', `ai@file:${build}`, '--scenario', 'tamper', '--store', 'memory', '--wiring', 'signed-approval', '--json', file, '--quiet', '--tables',
    );
    expect(code).toBe(0);
    expect(out).toMatch(/signed-approval\s+memory\s+fail \(3 steps\)/);
    const results = JSON.parse(await readFile(file, 'utf8'));
    expect(results.targets[0]).toMatchObject({ framework: 'ai', version: '6.0.326+local', spec: `ai@file:${build}`, packages: { ai: '6.0.326' } });
    expect(results.cells[0].id).toBe('ai@6.0.326+local/signed-approval/memory/tamper/integrity');
    // It replays from the path its results recorded.
    const replayed = await cli('replay', file, '--all');
    expect(replayed.out).toContain('1 reproduced, 0 differed.');
    // Its standalone reproduction installs the framework from the build's folder.
    const repro = await cli('repro', file, '--cell', results.cells[0].id, '--out', join(dir, 'repro'));
    expect(repro).toMatchObject({ code: 0 });
    const pkg = JSON.parse(await readFile(join(dir, 'repro', 'package.json'), 'utf8'));
    expect(pkg.dependencies.ai).toBe(`file:${build}`);
    expect(await readFile(join(dir, 'repro', 'README.md'), 'utf8')).toContain(`installs it from \`${build}\``);
  });

  it('says sampled for a sampled pass', async () => {
    const { out } = await cli('run', '--framework', 'reference', '--wiring', 'cas-fresh', '--store', 'memory', '--scenario', 'double-resume', '--sampled', '5', '--quiet', '--tables');
    expect(out).toMatch(/pass \(sampled 5\)/);
    expect(out).not.toMatch(/pass \(\d+ schedules?\)/);
    // The summary keeps it apart from an exhaustive pass too.
    const summary = (await cli('run', '--framework', 'reference', '--wiring', 'cas-fresh', '--store', 'memory', '--scenario', 'double-resume', '--sampled', '5', '--quiet')).out;
    expect(summary).toContain('cas-fresh/memory: keeps all 3; 3 passes not backed by every schedule (sampled or cut short): not a proof');
  });

  it.each([
    [['run', '--framework', 'nope'], /unknown framework 'nope'/],
    [['run', '--framework', '@openai/agents'], /@openai\/agents's adapter is named openai-agents/],
    [['run', '--framework', '@mastra/core'], /@mastra\/core's adapter is named mastra/],
    [['run', '--framework', 'langgraph@abc'], /'abc' is not a version or a range; give one like 1.7.3, 1 or \^1.7.0\. Pinned in the workspace: 1.7.3, 0.2.74/],
    [['run', '--framework', 'ai@x.y'], /'x.y' is not a version or a range; give one like 7.0.185, 7 or \^7.0.0\. Pinned in the workspace: 7.0.185, 6.0.326, 5.0.277/],
    [['run', '--framework', 'reference@9'], /reference is only available at version/],
    [['run', '--framework', 'ai@file:/nonexistent'], /no package.json in \/nonexistent; point file: at the built ai package's folder/],
    [['run', '--framework', 'reference', '--wiring', 'cas'], /unknown wiring 'cas'; choose from/],
    [['run', '--framework', 'reference', '--store', 'nosql'], /unknown store 'nosql'/],
    [['run', '--scenario', 'nope'], /unknown scenario 'nope'; choose from double-resume, replay/],
    [['run', '--property', 'speed'], /unknown property 'speed'/],
    [['run', '--sampled', '0'], /--sampled takes a whole number/],
  ])('rejects %j with one line and exit code 2', async (argv, message) => {
    const { code, err, out } = await cli(...argv);
    expect(code).toBe(2);
    expect(out).toBe('');
    expect(err.trim().split('\n')).toHaveLength(1);
    expect(err).toMatch(message);
  });
});
