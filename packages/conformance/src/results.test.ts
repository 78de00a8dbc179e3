// results.json validates against its JSON Schema: a real run's file, with passes, fails and n/a cells.
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { PROPERTY_IDS, SCENARIO_IDS } from '@approval-conformance/core';
import { cell, failing, results } from './results.fixtures.js';
import { readResults } from './results.js';
import { cli } from './run-io.fixtures.js';

const schema = JSON.parse(await readFile(new URL('../schema/results.v2.schema.json', import.meta.url), 'utf8'));
const ajv = new Ajv2020({ allErrors: true, strict: false });
addFormats.default(ajv);
const validate = ajv.compile(schema);

describe('results.v2.schema.json', () => {
  it('accepts what run writes', async () => {
    const file = join(await mkdtemp(join(tmpdir(), 'ac-schema-')), 'results.json');
    const { code } = await cli('run', '--framework', 'ai@5.0.277', '--scenario', 'double-resume,tamper', '--store', 'memory', '--json', file, '--quiet');
    expect(code).toBe(0);
    const data = JSON.parse(await readFile(file, 'utf8'));
    expect(data.cells.map((c: { verdict: string }) => c.verdict)).toEqual(expect.arrayContaining(['fail', 'not-applicable']));
    expect(validate(data), JSON.stringify(validate.errors)).toBe(true);
    expect(data.options.checkContents).toBe(true);
  });

  it('takes options that record whether contents were checked, and older options that do not say', () => {
    const options = { scenarios: ['double-resume'], mode: 'exhaustive', seed: 1, reduce: true };
    for (const said of [{ checkContents: true }, { checkContents: false }, {}]) {
      expect(validate({ ...results([failing('6.0.0')]), options: { ...options, ...said } }), JSON.stringify(said)).toBe(true);
    }
    expect(validate({ ...results([failing('6.0.0')]), options: { ...options, checkContents: 'yes' } })).toBe(false);
  });

  // A scenario or property the schema does not list makes every results file that has one unreadable (`report`,
  // `regression`, `replay` refuse it): the lists must be core's.
  it("lists core's scenarios and properties", () => {
    const cellSchema = schema.$defs.cell;
    expect(new Set(cellSchema.properties.scenario.enum)).toEqual(new Set(SCENARIO_IDS));
    expect(new Set(cellSchema.properties.property.enum)).toEqual(new Set(PROPERTY_IDS));
  });

  // A run stopped before its first unit ended has no cells yet, and must still be resumable; a finished one has some.
  it('takes no cells only from a run planned and not complete', () => {
    const empty = { schemaVersion: 2, planned: ['ai@6.0.0'], cells: [] };
    expect(validate(empty), JSON.stringify(validate.errors)).toBe(true);
    expect(validate({ ...empty, complete: true })).toBe(false);
    expect(validate({ schemaVersion: 2, cells: [] })).toBe(false);
  });

  it('refuses a pass with a counterexample and a fail without one', () => {
    const pass = { ...failing('6.0.0'), verdict: 'pass' };
    expect(validate(results([pass as never]))).toBe(false);
    const fail = cell({ version: '6.0.0', verdict: 'fail' });
    expect(validate(results([fail]))).toBe(false);
    expect(validate(results([cell({ version: '6.0.0', verdict: 'error' })]))).toBe(false);
    expect(validate(results([cell({ version: '6.0.0', verdict: 'error', reason: 'the worker process exited with code 3' })]))).toBe(true);
  });
});

describe('readResults', () => {
  // Options that do not say were written before run recorded it, when run did not check contents unless asked.
  it('reads options that do not say whether contents were checked as made without, and keeps those that say', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ac-results-'));
    const options = { scenarios: ['double-resume'], mode: 'exhaustive', seed: 1, reduce: true };
    const read = async (name: string, data: object) => {
      await writeFile(join(dir, name), JSON.stringify(data));
      return readResults(join(dir, name));
    };
    expect((await read('old.json', { ...results([failing('6.0.0')]), options })).options).toEqual({ ...options, checkContents: false });
    expect((await read('new.json', { ...results([failing('6.0.0')]), options: { ...options, checkContents: true } })).options?.checkContents).toBe(true);
    expect((await read('none.json', results([failing('6.0.0')]))).options).toBeUndefined();
  });
});
