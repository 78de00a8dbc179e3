// The journal of a resumed run: what it keeps of the results it continues, and when a version needs no worker.
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cell } from '../results.fixtures.js';
import type { RunOptions } from '../results.js';
import { Journal } from './journal.js';

const OPTIONS: RunOptions = { scenarios: ['double-resume'], wirings: ['native-approval'], mode: 'exhaustive', seed: 1, reduce: true, checkContents: true };
const hex = (c: string) => c.repeat(64);
const KEYS = { suite: hex('1'), adapter: hex('2'), tree: 'builtin', node: 'v20.20.2' };
const TARGET = { framework: 'ai', version: '6.0.0', spec: 'ai', packages: {}, units: 1, keys: KEYS };

async function complete(): Promise<string> {
  const file = join(await mkdtemp(join(tmpdir(), 'ac-journal-')), 'results.json');
  const results = { schemaVersion: 2, options: OPTIONS, planned: ['ai@6.0.0'], complete: true, targets: [TARGET], cells: [cell({ version: '6.0.0', verdict: 'pass' })] };
  await writeFile(file, JSON.stringify(results));
  return file;
}

describe('a resumed journal', () => {
  it('is no longer complete once --extend adds wirings, until the run ends', async () => {
    const file = await complete();
    const journal = await Journal.open(file, true, { ...OPTIONS, wirings: ['native-approval', 'signed-approval'] }, true);
    journal.plan([TARGET]);
    await journal.stop();
    expect(JSON.parse(await readFile(file, 'utf8')).complete).toBeUndefined();
  });

  it('starts no worker for a version whose units are all done, under the same spec and keys only', async () => {
    const journal = await Journal.open(await complete(), true, OPTIONS);
    const done = journal.done();
    const same = () => KEYS;
    const target = { framework: 'ai', version: '6.0.0', spec: 'ai' };
    expect(journal.finishedTargets([target], done, same)).toEqual(new Set(['ai@6.0.0']));
    // Named by version, a default version plans more (its narrowing is the default matrix's).
    expect(journal.finishedTargets([{ ...target, spec: 'ai@6.0.0' }], done, same)).toEqual(new Set());
    // Its adapter changed (a wiring more): the count is of another plan.
    expect(journal.finishedTargets([target], done, () => ({ ...KEYS, adapter: hex('3') }))).toEqual(new Set());
    // Not installed here: nothing to compare.
    expect(journal.finishedTargets([target], done, () => 'not installed')).toEqual(new Set());
  });
});
