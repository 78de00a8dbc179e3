// The README's programmatic API example is examples/run.mjs, word for word, and it runs: from the TypeScript sources
// here (the package imports itself by name), from the packed tarballs in scripts/pack-smoke.sh.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { ResultsFile } from './results.js';

const example = fileURLToPath(new URL('../examples/run.mjs', import.meta.url));
const text = readFileSync(example, 'utf8');
const reports = fileURLToPath(new URL('../../../reports/results.json', import.meta.url));
const readmes = {
  'packages/conformance/README.md': fileURLToPath(new URL('../README.md', import.meta.url)),
  'README.md': fileURLToPath(new URL('../../../README.md', import.meta.url)),
};

describe('the programmatic API example', () => {
  it.each(Object.entries(readmes))('is in %s as it is in examples/run.mjs', (_, readme) => {
    expect(readFileSync(readme, 'utf8')).toContain('```js\n' + text + '```\n');
  });

  it('runs, and prints what the committed reports say of the reference double-resume cells', async () => {
    const cwd = await mkdtemp(join(tmpdir(), 'ac-example-'));
    const tsx = createRequire(import.meta.url).resolve('tsx');
    const result = spawnSync(process.execPath, ['--import', tsx, '--conditions=@approval-conformance/source', example], { cwd, encoding: 'utf8' });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    const published = (JSON.parse(readFileSync(reports, 'utf8')) as ResultsFile).cells.filter(
      (c) => c.framework === 'reference' && c.scenario === 'double-resume' && c.store === 'memory',
    );
    const failing = published.filter((c) => c.verdict === 'fail');
    expect(result.stdout).toBe(
      [
        `${published.length} cells, ${failing.length} fail`,
        ...failing.map((c) => `${c.id}: ${c.counterexample!.steps} steps: ${c.counterexample!.explanation}`),
        `read back ${published.length} cells`,
      ].join('\n') + '\n',
    );
    expect(JSON.parse(readFileSync(join(cwd, 'results.json'), 'utf8')).cells).toHaveLength(published.length);
  });
});
