import { mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cell, failing, results } from './results.fixtures.js';
import { cli } from './run-io.fixtures.js';
import { readTriage, staleTriage, triageForReports, triageOf } from './triage.js';
import { UsageError } from './usage-error.js';

async function metadata(yaml: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'ac-triage-'));
  await writeFile(join(dir, 'ai.yml'), yaml);
  return dir;
}

const ENTRY = `- wiring: native-approval
  scenario: double-resume
  property: at-most-once
  versions: ">=6.0.0"
  link: https://ai-sdk.dev/docs/agents/tool-approvals
  note: The docs say the server keeps no state between requests.
`;

describe('triage metadata', () => {
  it('refuses a file named after no framework the suite knows, with the name it was likely meant to have', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ac-triage-'));
    await writeFile(join(dir, 'openai-agent.yml'), ENTRY);
    await expect(triageForReports(dir, dir)).rejects.toThrow(/openai-agent\.yml is named after 'openai-agent', which is no framework the suite knows \(did you mean openai-agents\.yml\?\)\. Frameworks: reference, ai, /);
  });

  it('matches the failing cells its fields name, and only failing ones', async () => {
    const entries = await readTriage(await metadata(ENTRY));
    expect(entries).toHaveLength(1);
    expect(triageOf(failing('6.0.0'), entries)).toHaveLength(1);
    expect(triageOf(failing('5.0.0'), entries)).toHaveLength(0);
    expect(triageOf(cell({ version: '6.0.0', verdict: 'pass' }), entries)).toHaveLength(0);
    expect(triageOf({ ...failing('6.0.0'), wiring: 'signed-approval' }, entries)).toHaveLength(0);
  });

  it('reports an entry that explains no failing cell as stale, and says why', async () => {
    const entries = await readTriage(await metadata(ENTRY));
    expect(staleTriage(entries, [failing('6.0.0')])).toEqual([]);
    const [stale] = staleTriage(entries, [cell({ version: '6.0.0', verdict: 'pass' })]);
    expect(stale!.why).toBe('it matches 1 cell, none failing');
    expect(staleTriage(entries, [{ ...failing('6.0.0'), wiring: 'signed-approval' }])[0]!.why).toBe('it matches no cell');
    // A cell with no verdict may yet fail: an entry that matches one is not judged.
    expect(staleTriage(entries, [cell({ version: '6.0.0', verdict: 'timeout' })])).toEqual([]);
    expect(staleTriage(entries, [cell({ version: '6.0.0', verdict: 'error' }), cell({ version: '6.0.0', verdict: 'pass', store: 'sqlite' })])).toEqual([]);
    // A framework the results did not run is not judged, nor a version range none of the versions they ran is in.
    expect(staleTriage(entries, [{ ...failing('6.0.0'), framework: 'langgraph' }])).toEqual([]);
    expect(staleTriage(entries, [failing('5.0.0')])).toEqual([]);
  });

  it('does not judge an entry about what a run left out (a partial report), but does where the run took it in', async () => {
    const entries = await readTriage(await metadata(ENTRY));
    const threeTabs = { ...failing('6.0.0'), scenario: 'three-tabs' as const };
    const partial = { scenarios: ['three-tabs'], mode: 'exhaustive', reduce: true } as const;
    expect(staleTriage(entries, [threeTabs], { options: partial, complete: true })).toEqual([]);
    expect(staleTriage(entries, [threeTabs], { options: { ...partial, scenarios: ['double-resume', 'three-tabs'] }, complete: true })[0]!.why).toBe('it matches no cell');
    // A wiring filter that leaves the entry's wiring out, and one that takes it in.
    const pass = cell({ version: '6.0.0', verdict: 'pass' });
    const matrix = { scenarios: ['double-resume'], mode: 'exhaustive', reduce: true } as const;
    expect(staleTriage(entries, [pass], { options: { ...matrix, wirings: ['signed-approval'] }, complete: true })).toEqual([]);
    expect(staleTriage(entries, [pass], { options: { ...matrix, wirings: ['native-approval'] }, complete: true })[0]!.why).toBe('it matches 1 cell, none failing');
  });

  it('does not judge, in a run that did not finish, an entry about a wiring it has no cell of yet', async () => {
    const entries = await readTriage(await metadata(ENTRY));
    const pass = cell({ version: '6.0.0', verdict: 'pass', wiring: 'signed-approval' });
    const options = { scenarios: ['double-resume'], wirings: ['native-approval', 'signed-approval'], mode: 'exhaustive', reduce: true } as const;
    const targets = [{ framework: 'ai', version: '6.0.0', spec: 'ai@6.0.0', packages: {}, wirings: [{ id: 'native-approval', description: '' }, { id: 'signed-approval', description: '' }] }];
    // native-approval, which the entry names, has not run yet: its cells may still fail.
    expect(staleTriage(entries, [pass], { options, targets, complete: false })).toEqual([]);
    // Finished, the entry is judged; and unfinished with the wiring run, too.
    expect(staleTriage(entries, [pass], { options, targets, complete: true })[0]!.why).toBe('it matches no cell');
    const native = cell({ version: '6.0.0', verdict: 'pass' });
    expect(staleTriage(entries, [pass, native], { options, targets, complete: false })[0]!.why).toBe('it matches 1 cell, none failing');
  });

  it.each([
    [ENTRY.replace('https://', 'http://'), "'link' must be an https URL"],
    [ENTRY.replace('https://ai-sdk.dev/docs/agents/tool-approvals', 'javascript:alert(1)'), "'link' must be an https URL"],
    [ENTRY.replace('  note:', '  severity: high\n  note:'), "unknown key 'severity'"],
    [ENTRY.replace('double-resume', 'double-click'), "unknown scenario 'double-click'"],
    [ENTRY.replace('">=6.0.0"', '"six"'), "'versions' must be a semver range"],
    ['- [unclosed', 'is not valid YAML'],
    ['wiring: x', 'the file must be a list of entries'],
  ])('refuses a bad entry with one line naming the file, the entry and the fix (%#)', async (yaml, message) => {
    const dir = await metadata(yaml);
    const error = await readTriage(dir, 'metadata').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UsageError);
    expect((error as Error).message).toContain(message);
    expect((error as Error).message).toMatch(/^metadata\/ai\.yml/);
  });

  it('shows the link beside the cell, escaped, and `report` warns of a stale entry', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ac-triage-'));
    const file = join(dir, 'results.json');
    await writeFile(file, JSON.stringify(results([failing('6.0.0'), cell({ version: '6.0.0', verdict: 'pass', scenario: 'replay' })])));
    await mkdir(join(dir, 'metadata'));
    const quoted = ENTRY.replace('no state between requests.', 'no <b>state</b> between "requests".');
    const stale = `- scenario: replay\n  link: https://example.org/a?b=1&c=2\n  note: A gap that was fixed.\n`;
    await writeFile(join(dir, 'metadata', 'ai.yml'), quoted + stale);
    const { code, err } = await cli('report', file);
    expect(code).toBe(0);
    expect(err).toBe(
      'approval-conformance: stale triage entry metadata/ai.yml, entry 2: it matches 1 cell, none failing. Update or remove it (https://example.org/a?b=1&c=2).\n'.replace(
        'metadata/',
        `${join(dir, 'metadata').replace(`${process.cwd()}/`, '')}/`,
      ),
    );
    const page = await readFile(join(dir, 'ai.html'), 'utf8');
    expect(page).toContain('<a class="tracked" href="https://ai-sdk.dev/docs/agents/tool-approvals" title="The docs say the server keeps no &lt;b&gt;state&lt;/b&gt; between &quot;requests&quot;.">tracked</a>');
    const index = await readFile(join(dir, 'index.html'), 'utf8');
    expect(index).toContain('href="https://example.org/a?b=1&amp;c=2"');
    expect(index).toContain('Stale triage entries');
    expect(await readFile(join(dir, 'ai.md'), 'utf8')).toContain('[tracked](https://ai-sdk.dev/docs/agents/tool-approvals)');
  });

  it('stops before writing a report when the metadata is bad', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ac-triage-'));
    const file = join(dir, 'results.json');
    await writeFile(file, JSON.stringify(results([failing('6.0.0')])));
    await mkdir(join(dir, 'metadata'));
    await writeFile(join(dir, 'metadata', 'ai.yml'), ENTRY.replace('https://', 'ftp://'));
    const { code, err } = await cli('report', file);
    expect(code).toBe(2);
    expect(err).toMatch(/^approval-conformance: .*metadata\/ai\.yml, entry 1: 'link' must be an https URL, got "ftp:.*Fix the entry or remove it\.\n$/);
    await expect(readFile(join(dir, 'README.md'), 'utf8')).rejects.toThrow();
  });
});
