// The README's example is examples/basic.ts, word for word, and it runs: from the TypeScript sources (the package
// imports itself by name), in a folder of its own (it opens approvals.db there), printing what the README says.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const example = fileURLToPath(new URL('../examples/basic.ts', import.meta.url));
const text = readFileSync(example, 'utf8');
const readme = readFileSync(fileURLToPath(new URL('../README.md', import.meta.url)), 'utf8');

describe('the README example', () => {
  it('is in README.md as it is in examples/basic.ts', () => {
    expect(readme).toContain('```ts\n' + text + '```\n');
  });

  it('runs, and prints what the README says it prints', async () => {
    const printed = /It prints:\n\n```text\n([^`]*)```/.exec(readme)?.[1];
    expect(printed, 'the README shows the output after "It prints:"').toBeDefined();
    const cwd = await mkdtemp(join(tmpdir(), 'ac-guard-example-'));
    try {
      const tsx = createRequire(import.meta.url).resolve('tsx');
      const result = spawnSync(process.execPath, ['--import', tsx, '--conditions=@approval-conformance/source', example], { cwd, encoding: 'utf8' });
      expect(result.stderr).toBe('');
      expect(result.status).toBe(0);
      expect(result.stdout).toBe(printed);
    } finally {
      await rm(cwd, { recursive: true, force: true });
    }
  });
});
