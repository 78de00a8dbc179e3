import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cell, failing, results } from '../results.fixtures.js';
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
});
