import { mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { HistoryEvent } from '@approval-conformance/core';
import { cell, failing, results } from '../results.fixtures.js';
import type { RunOptions } from '../results.js';
import { cli } from '../run-io.fixtures.js';
import { sequenceSvg } from './sequence.js';

const EVIL = '<script>alert("x")</script>';

describe('the HTML report', () => {
  it('renders a story with <script> in it as text, in the story and in the diagram', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ac-html-'));
    const file = join(dir, 'results.json');
    const fail = failing('6.0.0', [`holder tampered with a1: ${EVIL}`]);
    const history: HistoryEvent[] = [{ kind: 'tamper', actor: 'holder', approvalId: 'a1', what: EVIL }];
    // Names are checked when the file is read (results-hostile.test.ts); free text is escaped where it is shown.
    const evil = { ...fail, counterexample: { ...fail.counterexample!, history, explanation: EVIL } };
    await writeFile(file, JSON.stringify(results([evil, cell({ version: '6.0.0', verdict: 'error', reason: EVIL, store: 'sqlite' })])));
    expect((await cli('report', file)).code).toBe(0);

    for (const page of ['index.html', 'ai.html', 'html/ai@6.0.0.html']) {
      const html = await readFile(join(dir, page), 'utf8');
      expect(html, page).not.toMatch(/<script/i);
      expect(html, page).toMatch(/^<!doctype html>/);
      expect(html, page).not.toMatch(/https?:\/\/(?!www\.w3\.org\/2000\/svg)/);
    }
    const stories = await readFile(join(dir, 'html', 'ai@6.0.0.html'), 'utf8');
    expect(stories).toContain('<li class="witness">holder tampered with a1: &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;</li>');
    expect(stories).toContain('<svg xmlns="http://www.w3.org/2000/svg" class="sequence"');
    expect(stories).toContain('1. tamper a1: &lt;script&gt;');
    const table = await readFile(join(dir, 'ai.html'), 'utf8');
    expect(table).toContain('title="&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;"');
  });

  it("escapes the folder of a run published beside this one, in the text and in its links", async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ac-html-'));
    const options: RunOptions = { scenarios: ['double-resume'], mode: 'exhaustive', seed: 1, reduce: true, checkContents: true };
    await writeFile(join(dir, 'results.json'), JSON.stringify({ ...results([failing('7.0.0')]), complete: true, options }));
    const folder = `x<y & "z"`;
    const cf = { ...failing('0.12.2'), framework: 'cloudflare-agents', id: 'cloudflare-agents@0.12.2/native-approval/memory/double-resume/at-most-once' };
    const companion = { schemaVersion: 2, targets: [{ framework: 'cloudflare-agents', version: '0.12.2', spec: 'cloudflare-agents', packages: {} }], cells: [cf], complete: true, options };
    await mkdir(join(dir, folder));
    await writeFile(join(dir, folder, 'results.json'), JSON.stringify(companion));
    expect((await cli('report', join(dir, 'results.json'))).code).toBe(0);
    const html = await readFile(join(dir, 'index.html'), 'utf8');
    expect(html).toContain('<a href="x%3Cy%20%26%20%22z%22/index.html">x&lt;y &amp; &quot;z&quot;/</a>');
    expect(html).toContain('href="x%3Cy%20%26%20%22z%22/html/cloudflare-agents@0.12.2.html#native-approval-memory-double-resume-at-most-once"');
    expect(html).not.toContain('<y');
    const index = await readFile(join(dir, 'README.md'), 'utf8');
    expect(index).toContain('[x&lt;y &amp; "z"/](x%3Cy%20%26%20%22z%22/README.md)');
  });

  it('draws one arrow per event, from the actor to the record, the world or the client', () => {
    const history: HistoryEvent[] = [
      { kind: 'record-read', actor: 't1', approvalId: 'a1', version: 1, state: 'unspent' },
      { kind: 'effect', actor: 't1', approvalId: 'a1', dispatch: 't1/a1', action: { operation: 'transfer', targets: ['acct-1'], params: {} }, world: 'w1', applied: true, requiresApproval: true },
      { kind: 'disclosure', actor: 't2', approvalId: 'a1', says: 'happened' },
      { kind: 'crash', actor: 't2' },
    ];
    const svg = sequenceSvg(history, new Set([1]));
    const lanes = [...svg.matchAll(/class="lane[^"]*">([^<]+)</g)].map((m) => m[1]);
    expect(lanes).toEqual(['t1', 't2', 'record', 'world', 'client']);
    expect(svg.match(/class="arrow/g)).toHaveLength(3);
    expect(svg).toContain('class="arrow witness"');
    expect(svg).toContain('4. crashed');
  });
});
