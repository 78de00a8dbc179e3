// Paths and links built from a results file's names: a second lock behind the schema check when a file is read.
import { mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SCENARIOS } from '@approval-conformance/core';
import { failing } from '../results.fixtures.js';
import { UsageError } from '../usage-error.js';
import { urlPart } from './escape.js';
import { writeReports } from './reports.js';

describe('writeReports', () => {
  it('refuses a name that would land outside its folder, before it writes anything', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ac-reports-'));
    const out = join(dir, 'out');
    const cell = { ...failing('6.0.0'), framework: '../../escaped' };
    const input = { targets: [{ framework: '../../escaped', version: '6.0.0', spec: 'x', packages: {} }], cells: [cell], scenarios: [...SCENARIOS.values()] };
    await expect(writeReports(out, input)).rejects.toThrow(UsageError);
    expect(await readdir(dir)).toEqual([]);
  });

  it("says in the environment which versions declare a Node range the run's Node is outside of", async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ac-reports-'));
    const target = { framework: 'mastra', version: '1.71.0', spec: 'mastra@1.71.0', packages: { '@mastra/core': '1.71.0' }, nodeEngines: { '@mastra/core': '>=22.13.0' } };
    const input = { targets: [target], cells: [], scenarios: [...SCENARIOS.values()] };
    await writeReports(dir, input, { environment: { suite: '0.0.0', node: 'v20.20.2', os: 'linux', arch: 'x64', cpus: 2 } });
    const index = await readFile(join(dir, 'README.md'), 'utf8');
    expect(index).toContain('Node v20.20.2');
    expect(index).toContain('mastra@1.71.0 (@mastra/core declares node >=22.13.0)');
  });
});

describe('writeReports over an earlier report', () => {
  it("removes the stories of its frameworks' versions these results no longer hold, and nothing else", async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ac-reports-'));
    const target = (version: string) => ({ framework: 'ai', version, spec: 'ai', packages: {} });
    const scenarios = [...SCENARIOS.values()];
    await writeReports(dir, { targets: [target('6.0.0'), target('7.0.0')], cells: [failing('6.0.0'), failing('7.0.0')], scenarios });
    await writeFile(join(dir, 'stories', 'notes.txt'), 'mine');
    await writeFile(join(dir, 'stories', 'mastra@1.0.0.md'), 'another framework');
    await writeReports(dir, { targets: [target('7.0.0')], cells: [failing('7.0.0')], scenarios });
    expect((await readdir(join(dir, 'stories'))).sort()).toEqual(['ai@7.0.0.md', 'mastra@1.0.0.md', 'notes.txt']);
    expect(await readdir(join(dir, 'html'))).toEqual(['ai@7.0.0.html']);
  });
});

describe('urlPart', () => {
  it('leaves plain names as they are and encodes the rest', () => {
    expect(urlPart('langgraph')).toBe('langgraph');
    expect(urlPart('6.0.327+local')).toBe('6.0.327+local');
    expect(urlPart('javascript:alert(1)//')).toBe('javascript%3Aalert(1)%2F%2F');
    expect(urlPart('..')).toBe('%2E%2E');
  });
});
