import { mkdir, mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cell, failing, results } from '../results.fixtures.js';
import type { ResultCell, ResultsFile, RunOptions } from '../results.js';
import { cli } from '../run-io.fixtures.js';

describe('the Markdown reports', () => {
  it('link a fail to its story, and render what a story says as text, never as HTML', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ac-md-'));
    const file = join(dir, 'results.json');
    const evil = 'holder tampered with a1: <script>alert("x")</script> | col';
    await writeFile(file, JSON.stringify(results([failing('6.0.0', [evil]), cell({ version: '6.0.0', verdict: 'pass', store: 'sqlite' })])));
    const { code } = await cli('report', file);
    expect(code).toBe(0);

    const page = await readFile(join(dir, 'ai.md'), 'utf8');
    expect(page).toContain('| 6.0.0 | native-approval | memory | [fail (4 steps)](stories/ai@6.0.0.md#native-approval-memory-double-resume-at-most-once) |');
    expect(page).toContain('| 6.0.0 | native-approval | sqlite | pass (18) |');

    const stories = await readFile(join(dir, 'stories', 'ai@6.0.0.md'), 'utf8');
    expect(stories).toContain('<a id="native-approval-memory-double-resume-at-most-once"></a>');
    expect(stories).toContain('1. **holder tampered with a1: &lt;script&gt;alert("x")&lt;/script&gt; \\| col**');
    expect(stories).not.toContain('<script>');

    const index = await readFile(join(dir, 'README.md'), 'utf8');
    // The one-minute answer: the failure in plain words, linking to its story; every version, by wiring.
    expect(index).toContain('[two resumes of one approval (a click and a typed "go ahead") both ran the transfer](stories/ai@6.0.0.md#native-approval-memory-double-resume-at-most-once)');
    expect(index).toContain('| [ai@6.0.0](ai.md) | [**holds on 0 of 1 wiring**](ai.md#by-wiring) |');
    expect(index).toMatch(/<details><summary>Installed packages \(1 version\)<\/summary>/);
    expect(index.indexOf('## The one-minute answer')).toBeLessThan(index.indexOf('Installed packages'));
    expect(index).toContain('Stores that ran: memory, sqlite.');
    // One framework is named, not counted ("Of the 1 frameworks here").
    expect(index).toContain('**At its newest version, ai has no documented wiring that keeps an approved action to one run under every schedule explored. The safest documented wiring keeps ');
  });

  it("answer for the newest of each release line of a framework that has several (MCP's 1.x and 2.x), each in its own section", async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ac-md-'));
    const file = join(dir, 'results.json');
    const wirings = [{ id: 'plain', description: 'the docs', docsDefault: true as const }];
    const at = (version: string, verdict: 'pass' | 'fail') =>
      verdict === 'fail'
        ? { ...failing(version), framework: 'mcp', wiring: 'plain', id: `mcp@${version}/plain/memory/double-resume/at-most-once` }
        : cell({ version, verdict, framework: 'mcp', wiring: 'plain' });
    const cells = [at('1.31.0', 'fail'), at('1.32.2', 'pass'), at('2.4.0', 'fail')];
    const targets = ['1.31.0', '1.32.2', '2.4.0'].map((version) => ({ framework: 'mcp', version, spec: 'mcp', packages: {}, wirings }));
    await writeFile(file, JSON.stringify({ schemaVersion: 2, targets, cells }));
    expect((await cli('report', file)).code).toBe(0);
    const index = await readFile(join(dir, 'README.md'), 'utf8');
    expect(index).toContain("**Of mcp's 2 release lines, at their newest version, only mcp 1.32.2 (plain) has a documented wiring that keeps an approved action to one run under every schedule explored.");
    expect(index).toContain('### mcp 2.4.0');
    expect(index).toContain('### mcp 1.32.2');
    expect(index).not.toContain('### mcp 1.31.0');
  });

  it('say nothing of which wiring keeps an action to one run where the results did not check at-most-once', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ac-md-'));
    const file = join(dir, 'results.json');
    await writeFile(file, JSON.stringify(results([{ ...failing('6.0.0'), property: 'no-resurrection', id: 'ai@6.0.0/native-approval/memory/double-resume/no-resurrection' }])));
    expect((await cli('report', file)).code).toBe(0);
    const index = await readFile(join(dir, 'README.md'), 'utf8');
    expect(index).toContain('**These results do not check at-most-once, so they do not say which wiring keeps an approved action to one run. The safest documented wiring keeps 0 of 1 properties.**');
    expect(index).not.toContain('has no documented wiring');
  });

  it("set the framework's own fix beside the default and the guarded wiring, linking its page (escaped)", async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ac-md-'));
    const file = join(dir, 'results.json');
    const page = 'https://example.com/docs/hitl?a=1&b=2#fix';
    const base = results([
      failing('7.0.0'),
      cell({ version: '7.0.0', verdict: 'pass', wiring: 'own-fix' }),
      cell({ version: '7.0.0', verdict: 'pass', wiring: 'guarded-native-approval' }),
    ]);
    const wirings = [
      { id: 'native-approval', description: 'the docs', docsDefault: true as const },
      { id: 'own-fix', description: "the docs' remedy", remedy: page },
      { id: 'guarded-native-approval', description: 'with the guard' },
    ];
    await writeFile(file, JSON.stringify({ ...base, targets: base.targets!.map((t) => ({ ...t, wirings })) }));
    const ran = await cli('report', file);
    expect(ran.err).toBe('');
    expect(ran.code).toBe(0);
    const index = await readFile(join(dir, 'README.md'), 'utf8');
    expect(index).toContain("framework's fix: `own-fix` [(page)](https://example.com/docs/hitl?a=1&b=2#fix)");
    // The fix keeps more than the documented wiring: it is the one marked safest, never the worse one.
    expect(index).toContain("| default: `native-approval` |");
    expect(index).toContain("| safest: framework's fix: `own-fix`");
    expect(index).not.toContain('default and safest');
    expect(index).toContain("**The framework's own fix, the safest documented wiring, `own-fix`**");
    expect(index).toContain('guarded: `guarded-native-approval`');
    expect(await readFile(join(dir, 'index.html'), 'utf8')).toContain('href="https://example.com/docs/hitl?a=1&amp;b=2#fix"');
    // A page that could break out of a link is refused with the file, before anything is written.
    const bad = { ...base, targets: base.targets!.map((t) => ({ ...t, wirings: [{ ...wirings[1]!, remedy: 'https://x.test/a)<script>' }] })) };
    await writeFile(file, JSON.stringify(bad));
    const refused = await cli('report', file);
    expect(refused.code).toBe(2);
    expect(refused.err).toMatch(/remedy/);
  });

  it("say what the guard fails only with its records in memory, and order the sections as the grid", async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ac-md-'));
    const file = join(dir, 'results.json');
    const guarded = (verdict: 'pass' | 'fail', store: string, version = '7.0.0') =>
      cell({ version, verdict, store, wiring: 'guarded-native-approval', ...(verdict === 'fail' ? { counterexample: failing(version).counterexample } : {}) });
    const base = results([failing('7.0.0'), guarded('fail', 'memory'), guarded('pass', 'sqlite')]);
    await writeFile(file, JSON.stringify(base));
    expect((await cli('report', file)).code).toBe(0);
    const index = await readFile(join(dir, 'README.md'), 'utf8');
    expect(index).toContain('with the approval guard added, 0 of 1, and it fails at-most-once only with its records in memory.**');
    // A failure on a durable store: not said.
    await writeFile(file, JSON.stringify(results([failing('7.0.0'), guarded('fail', 'memory'), guarded('fail', 'sqlite')])));
    expect((await cli('report', file)).code).toBe(0);
    expect(await readFile(join(dir, 'README.md'), 'utf8')).not.toContain('only with its records in memory');
  });

  it('never count a pass from a cut-short exploration as kept', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ac-md-'));
    const file = join(dir, 'results.json');
    const partly = (property: 'at-most-once' | 'no-resurrection') =>
      cell({ version: '7.0.0', verdict: 'pass', wiring: 'guarded-native-approval', property, exhaustive: false, schedules: 1500 });
    await writeFile(file, JSON.stringify(results([failing('7.0.0'), partly('at-most-once'), partly('no-resurrection')])));
    expect((await cli('report', file)).code).toBe(0);
    const index = await readFile(join(dir, 'README.md'), 'utf8');
    expect(index).toContain(
      '`guarded-native-approval`**: keeps 0 of the 2 properties it was checked for under every schedule; 2 hold where explored, not under every schedule.',
    );
    expect(index).not.toMatch(/keeps all 0/);
    expect(index).toContain('`native-approval`**: keeps 0 of the 1 property it was checked for. Still fails:');
  });

  it('say when the run did not finish, and which planned versions have not run', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ac-md-'));
    const file = join(dir, 'results.json');
    await writeFile(file, JSON.stringify({ ...results([failing('6.0.0')]), planned: ['ai@6.0.0', 'ai@7.0.0'] }));
    await cli('report', file);
    expect(await readFile(join(dir, 'README.md'), 'utf8')).toContain('**This run did not finish. Not run yet: ai@7.0.0;');
    expect(await readFile(join(dir, 'index.html'), 'utf8')).toContain('<p><strong>This run did not finish. Not run yet: ai@7.0.0;');
    await writeFile(file, JSON.stringify({ ...results([failing('6.0.0')]), planned: ['ai@6.0.0'], complete: true }));
    await cli('report', file);
    expect(await readFile(join(dir, 'README.md'), 'utf8')).not.toContain('did not finish');
  });

  it('count and link a run published beside them (the Cloudflare row, run apart) in the one-minute answer, and only then', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ac-md-'));
    const file = join(dir, 'results.json');
    const options: RunOptions = { scenarios: ['double-resume', 'replay'], mode: 'exhaustive', seed: 1, reduce: true, checkContents: true };
    const run = (cells: ResultCell[], framework = 'ai', over: Partial<ResultsFile> = {}): ResultsFile => ({
      ...results(cells),
      targets: [...new Set(cells.map((c) => c.version))].map((version) => ({ framework, version, spec: framework, packages: {} })),
      complete: true,
      options,
      updated: '2026-12-06T01:19:24.890Z',
      ...over,
    });
    await writeFile(file, JSON.stringify(run([failing('7.0.0')])));
    const cf = (c: ResultCell): ResultCell => ({ ...c, framework: 'cloudflare-agents', id: c.id.replace(/^ai@/, 'cloudflare-agents@') });
    const companion = run([cf(failing('0.12.2')), cf(cell({ version: '0.12.2', verdict: 'pass', wiring: 'guarded-native-approval' }))], 'cloudflare-agents');

    // Without a run beside it: one framework, named.
    expect((await cli('report', file)).code).toBe(0);
    let index = await readFile(join(dir, 'README.md'), 'utf8');
    expect(index).toContain('**At its newest version, ai has no documented wiring');
    expect(index).not.toContain('cloudflare-agents');

    // With one, in its own folder: counted, its row and section link its own reports, and nothing is written there.
    await mkdir(join(dir, 'cloudflare-agents'));
    await writeFile(join(dir, 'cloudflare-agents', 'results.json'), JSON.stringify(companion));
    expect((await cli('report', file)).code).toBe(0);
    index = await readFile(join(dir, 'README.md'), 'utf8');
    expect(index).toContain('**Of the 2 frameworks here, at their newest version, none has a documented wiring');
    expect(index).toContain('| [**cloudflare-agents 0.12.2**](cloudflare-agents/cloudflare-agents.md)<br>[its own run](cloudflare-agents/README.md) | safest: `native-approval` | [✗](cloudflare-agents/stories/cloudflare-agents@0.12.2.md#native-approval-memory-double-resume-at-most-once) |');
    expect(index).toContain('A row comes from its own run, published apart with the same options as this one: cloudflare-agents, from [cloudflare-agents/](cloudflare-agents/README.md).');
    expect(index).toContain('### cloudflare-agents 0.12.2\n\n- From its own run, published apart with the same options as this one: [cloudflare-agents/](cloudflare-agents/README.md), last cell written 2026-12-06T01:19:24.890Z.');
    expect(index).toContain('[Every version, wiring and cell of cloudflare-agents](cloudflare-agents/cloudflare-agents.md)');
    // Its versions are its own run's: not in this run's tables, stories or reproductions.
    expect(index).not.toContain('[cloudflare-agents@0.12.2]');
    expect(await readdir(join(dir, 'cloudflare-agents'))).toEqual(['results.json']);
    const html = await readFile(join(dir, 'index.html'), 'utf8');
    expect(html).toContain('<a href="cloudflare-agents/cloudflare-agents.html"><strong>cloudflare-agents 0.12.2</strong></a><br><a href="cloudflare-agents/index.html">its own run</a>');
    expect(html).toContain('href="cloudflare-agents/html/cloudflare-agents@0.12.2.html#native-approval-memory-double-resume-at-most-once"');

    // Run with other options than this one: left out, and said why.
    await writeFile(join(dir, 'cloudflare-agents', 'results.json'), JSON.stringify({ ...companion, options: { ...options, scenarios: ['double-resume'] } }));
    expect((await cli('report', file)).code).toBe(0);
    index = await readFile(join(dir, 'README.md'), 'utf8');
    expect(index).toContain('**At its newest version, ai has no documented wiring');
    expect(index).toContain('- cloudflare-agents, run in `cloudflare-agents/results.json`: it ran with other options (--scenario double-resume) than this run (--scenario double-resume,replay).');

    // A file that cannot be read: the index is written all the same, and says so, naming it from the reports' folder.
    await writeFile(join(dir, 'cloudflare-agents', 'results.json'), '{"cells": [');
    const corrupt = await cli('report', file);
    expect(corrupt.code).toBe(0);
    index = await readFile(join(dir, 'README.md'), 'utf8');
    expect(index).toContain('**At its newest version, ai has no documented wiring');
    expect(index).toContain("**Not in this answer, although published beside it:**\n\n- The run in `cloudflare-agents/results.json`, which could not be read: 'cloudflare-agents/results.json' is not JSON;");
    expect(index).not.toContain(dir);
  });
});
