// The run in a few lines of GitHub-flavoured Markdown, for a CI job's summary page (`--summary FILE`, and
// $GITHUB_STEP_SUMMARY when GitHub Actions sets it): a row per framework version with its cells counted by verdict,
// then the cells that failed, errored or timed out, a line each, up to a limit.
import type { ResultCell } from '../results.js';
import { md } from './escape.js';
import { shortVerdict, verdictCell, verdictCounts, VERDICTS } from './verdict.js';

/** Cells listed by name below the table, at most. */
const LISTED = 20;

export function stepSummary(targets: readonly { framework: string; version: string }[], cells: readonly ResultCell[]): string {
  const heads = ['version', 'cells', ...VERDICTS.map(shortVerdict)];
  const lines = ['### approval-conformance', '', `| ${heads.join(' | ')} |`, `|${heads.map(() => '---|').join('')}`];
  for (const t of targets) {
    const mine = cells.filter((c) => c.framework === t.framework && c.version === t.version);
    lines.push(`| ${md(`${t.framework}@${t.version}`)} | ${mine.length} | ${verdictCounts(mine).join(' | ')} |`);
  }
  const bad = cells.filter((c) => c.verdict === 'fail' || c.verdict === 'error' || c.verdict === 'timeout');
  if (bad.length > 0) {
    lines.push('', `${bad.length} cell${bad.length === 1 ? '' : 's'} failed, errored or timed out:`, '');
    for (const c of bad.slice(0, LISTED)) lines.push(`- \`${c.id}\`: ${md(verdictCell(c))}${c.reason ? ` (${md(c.reason)})` : ''}`);
    if (bad.length > LISTED) lines.push(`- and ${bad.length - LISTED} more (see the results file)`);
  }
  return lines.join('\n') + '\n';
}
