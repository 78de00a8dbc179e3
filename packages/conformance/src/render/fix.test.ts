import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { cell, failing } from '../results.fixtures.js';
import { fixChange, guardedFix } from './fix.js';
import { storiesHtml } from './html.js';
import { storiesPage } from './markdown.js';

const broken = failing('7.0.0');
const guarded = (wiring: string, verdict: 'pass' | 'fail' = 'pass') => cell({ version: '7.0.0', wiring, verdict });
const target = { framework: 'ai', version: '7.0.0', spec: 'ai', packages: {} };

describe('the fix a failing cell links to', () => {
  it('is the passing guarded row of the same wiring, or else the first guarded wiring that passes there', () => {
    expect(guardedFix(broken, [broken, guarded('guarded-other'), guarded('guarded-native-approval')])?.wiring).toBe('guarded-native-approval');
    expect(guardedFix(broken, [broken, guarded('guarded-other')])?.wiring).toBe('guarded-other');
    expect(guardedFix(broken, [broken, guarded('guarded-a', 'fail'), guarded('guarded-b'), guarded('guarded-c')])?.wiring).toBe('guarded-b');
  });

  it('is never a guarded cell that did not pass, another store, nor offered for a guarded cell', () => {
    expect(guardedFix(broken, [broken, guarded('guarded-native-approval', 'fail')])).toBeUndefined();
    const guardedFail = { ...broken, wiring: 'guarded-native-approval' };
    expect(guardedFix(guardedFail, [guardedFail, guarded('guarded-x')])).toBeUndefined();
  });

  it("is on another store only where none passes on the failing cell's own (a crash on memory loses the record)", () => {
    const onSqlite = { ...guarded('guarded-native-approval'), store: 'sqlite' };
    expect(guardedFix(broken, [broken, onSqlite, guarded('guarded-other')])?.wiring).toBe('guarded-other');
    expect(guardedFix(broken, [broken, onSqlite, guarded('guarded-other', 'fail')])).toBe(onSqlite);
    expect(fixChange(broken, onSqlite)).toBe(`with the approval guard added and its records on sqlite (on ${broken.store} a crash loses them)`);
  });

  it('is shown under the story, in Markdown and HTML, with the guard README', () => {
    const cells = [broken, guarded('guarded-native-approval')];
    expect(storiesPage(target, cells)).toContain(
      "**The fix:** with the approval guard added, `guarded-native-approval` on memory passes this (pass (18 schedules)). How to fix this in your app: [the guard's README](https://github.com/approval-conformance/approval-conformance/blob/main/packages/guard/README.md#install).",
    );
    // Written into a folder of a clone (reports/), the link is relative, from the story's folder, and works offline.
    const reports = fileURLToPath(new URL('../../../../reports', import.meta.url));
    expect(storiesPage(target, cells, reports)).toContain("[the guard's README](../../packages/guard/README.md#install)");
    expect(storiesHtml(target, cells)).toContain('<strong>The fix:</strong> with the approval guard added, <code>guarded-native-approval</code>');
    expect(storiesPage(target, [broken])).not.toContain('The fix');
  });
});
