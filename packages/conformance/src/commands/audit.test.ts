import { copyFile, mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
await (await import('../registry.js')).useAdapters([fileURLToPath(new URL('../matrix/broken.fixtures.ts', import.meta.url))]);
const { cli } = await import('../run-io.fixtures.js');
const { population } = await import('./audit.js');
const { selectUnits } = await import('../audit/select.js');

describe('approval-conformance audit', () => {
  it('checks the chosen cells reduced against unreduced, says so for each, and ends with how many agreed', async () => {
    const out = await mkdtemp(join(tmpdir(), 'ac-audit-'));
    const { code, out: text, err } = await cli('audit', '--cells', '3', '--seed', '2', '--framework', 'reference', '--out', out);
    expect(code, err).toBe(0);
    expect(err).toMatch(/^Auditing 3 of \d+ cells \(seed 2\)/m);
    expect(err.match(/^agrees {2}reference@0\.0\.0\/\S+: \d+ reduced against \d+ unreduced schedules, exhaustive$/gm)).toHaveLength(3);
    expect(text.trim().split('\n').at(-1)).toBe('3 of 3 audited cells agreed (seed 2).');
    // The three runs are kept where asked, as results files.
    for (const run of ['reduced', 'unreduced', 'sampled']) expect(JSON.parse(await readFile(join(out, `${run}.json`), 'utf8')).schemaVersion).toBe(2);
  });

  it('picks the same cells for the same seed', async () => {
    const picked = async () => (await cli('audit', '--cells', '2', '--seed', '9', '--framework', 'reference', '--cap', '1', '--samples', '1')).err.match(/^\S+ {2}\S+/gm);
    expect(await picked()).toEqual(await picked());
  });

  it('says what differs and exits 1 where the reductions cannot be trusted (a write declared as a read)', async () => {
    const { code, out, err } = await cli('audit', '--framework', 'misdeclared', '--cells', '1', '--quiet');
    expect(code, err).toBe(1);
    expect(out).toMatch(/^misdeclared@1\.0\.0\/only\/memory\/\S+ differs \(/m);
    expect(out).toMatch(/the reduced run could not judge it \(error: the adapter's declared accesses do not cover what its code did[\s\S]*store\.write/);
    expect(out).toMatch(/replay a cell with\n {2}approval-conformance replay \S+unreduced\.json --cell ID/);
    expect(out.trim().split('\n').at(-1)).toBe('0 of 1 audited cells agreed (seed 1); 1 differed.');
  });

  it('draws from every published results file of the default run: ten cells hold a Cloudflare one, whatever the seed', async () => {
    const lines: string[] = [];
    const units = await population(undefined, 1, (line) => lines.push(line));
    expect(lines).toEqual([expect.stringMatching(/^Drawing cells from reports\/results\.json, reports\/cloudflare-agents\/results\.json \(not from .*reports\/three-tabs-capped\/results\.json: its explorations were capped at 1500 schedules;/)]);
    for (let seed = 0; seed < 20; seed++) expect(selectUnits(units, 10, seed).map((u) => u.framework)).toContain('cloudflare-agents');
  });

  it('names a corrupt results file and the fix, in one line', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ac-audit-'));
    await mkdir(join(dir, 'reports', 'row'), { recursive: true });
    await copyFile(fileURLToPath(new URL('../../../../reports/results.json', import.meta.url)), join(dir, 'reports', 'results.json'));
    await writeFile(join(dir, 'reports', 'row', 'results.json'), '{"cells": [');
    const cwd = process.cwd();
    process.chdir(dir);
    try {
      const { code, err } = await cli('audit', '--cells', '1');
      expect(code).toBe(2);
      expect(err).toBe("approval-conformance: 'reports/row/results.json' is not JSON; expected a results file written by 'approval-conformance run'. The audit reads every results file under reports: restore this one (git checkout -- reports/row/results.json) or move it out of there.\n");
    } finally {
      process.chdir(cwd);
    }
  });

  it('refuses bad input with one line that names the fix', async () => {
    expect(await cli('audit', '--cells', '0')).toMatchObject({ code: 2, err: expect.stringMatching(/--cells/) });
    expect(await cli('audit', '--framework', 'nope')).toMatchObject({ code: 2, err: expect.stringMatching(/unknown framework 'nope'/) });
  });
});
