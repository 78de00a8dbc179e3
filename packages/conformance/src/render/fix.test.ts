import { describe, expect, it } from 'vitest';
import { cell, failing } from '../results.fixtures.js';
import { guardedFix } from './fix.js';
import { storiesHtml } from './html.js';
import { storiesPage } from './markdown.js';

const broken = failing('7.0.0');
const guarded = (wiring: string, verdict: 'pass' | 'fail' = 'pass') => cell({ version: '7.0.0', wiring, verdict });
const target = { framework: 'ai', version: '7.0.0', spec: 'ai', packages: {} };

describe('the fix a failing cell links to', () => {
  it('is the passing guarded row of the same wiring, or else the one guarded wiring there is', () => {
    expect(guardedFix(broken, [broken, guarded('guarded-other'), guarded('guarded-native-approval')])?.wiring).toBe('guarded-native-approval');
    expect(guardedFix(broken, [broken, guarded('guarded-other')])?.wiring).toBe('guarded-other');
  });

  it('is never a guarded cell that did not pass, another store, nor offered for a guarded cell', () => {
    expect(guardedFix(broken, [broken, guarded('guarded-native-approval', 'fail')])).toBeUndefined();
    expect(guardedFix(broken, [broken, { ...guarded('guarded-native-approval'), store: 'sqlite' }])).toBeUndefined();
    expect(guardedFix(broken, [broken, guarded('guarded-a'), guarded('guarded-b')])).toBeUndefined();
    const guardedFail = { ...broken, wiring: 'guarded-native-approval' };
    expect(guardedFix(guardedFail, [guardedFail, guarded('guarded-x')])).toBeUndefined();
  });

  it('is shown under the story, in Markdown and HTML, with the guard README', () => {
    const cells = [broken, guarded('guarded-native-approval')];
    expect(storiesPage(target, cells)).toContain(
      "**The fix:** with the approval guard added, `guarded-native-approval` on memory passes this (pass (18 schedules)). How to fix this in your app: [the guard's README](https://github.com/approval-conformance/approval-conformance/tree/main/packages/guard#readme).",
    );
    expect(storiesHtml(target, cells)).toContain('<strong>The fix:</strong> with the approval guard added, <code>guarded-native-approval</code>');
    expect(storiesPage(target, [broken])).not.toContain('The fix');
  });
});
