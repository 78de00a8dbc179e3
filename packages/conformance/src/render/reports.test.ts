// Paths and links built from a results file's names: a second lock behind the schema check when a file is read.
import { mkdtemp, readdir } from 'node:fs/promises';
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
});

describe('urlPart', () => {
  it('leaves plain names as they are and encodes the rest', () => {
    expect(urlPart('langgraph')).toBe('langgraph');
    expect(urlPart('6.0.327+local')).toBe('6.0.327+local');
    expect(urlPart('javascript:alert(1)//')).toBe('javascript%3Aalert(1)%2F%2F');
    expect(urlPart('..')).toBe('%2E%2E');
  });
});
