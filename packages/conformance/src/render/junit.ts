// A run as JUnit XML (`--junit FILE`), for CI test viewers: a <testsuite> per framework version, a <testcase> per
// cell. A fail is a <failure> carrying its counterexample's story; error and timeout are <error>s with the reason;
// n/a is <skipped>; pass and allowed pass. Every testcase's <system-out> starts with the verdict as the tables show
// it (`pass (sampled 100)`), so that a sampled or partial pass is never read as a proof. The output is checked
// against Jenkins' junit-10.xsd (junit-schema/), which admits no `skipped` count on <testsuites>: the skipped count
// is on each <testsuite>.
import type { ResultCell, ResultTarget } from '../results.js';
import { storyLines } from './story-text.js';
import { provenAfter, verdictCell } from './verdict.js';

export interface JunitOptions {
  /** The name of the <testsuites>; default `approval-conformance`. */
  readonly name?: string;
  /** When the run started (ISO 8601, as in the results file), put on every <testsuite>. */
  readonly timestamp?: string;
  /** The results file the cells are in: a failure then says how to replay its counterexample from it. */
  readonly resultsFile?: string;
}

/**
 * Characters XML 1.0 admits nowhere, not even as references: C0 controls but tab, LF and CR, lone surrogates,
 * U+FFFE and U+FFFF. Each becomes U+FFFD, so that the reader sees something was there.
 */
const ILLEGAL = /[^\t\n\r\x20-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

/** Text content. CR as a reference too, which a parser would otherwise fold into LF. No CDATA, so `]]>` is plain text. */
export const xmlText = (text: string) =>
  text.replace(ILLEGAL, '\uFFFD').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/\r/g, '&#13;');

/** An attribute value (in double quotes): quotes escaped, and LF and tab as references, which a parser would turn into spaces. */
export const xmlAttr = (text: string) =>
  xmlText(text).replace(/"/g, '&quot;').replace(/'/g, '&apos;').replace(/\n/g, '&#10;').replace(/\t/g, '&#9;');

const targetKey = (c: { readonly framework: string; readonly version: string }) => `${c.framework}@${c.version}`;
/** The unit a cell belongs to (one scenario run on one wiring and store): its cells share one `ms`. */
const unitKey = (c: ResultCell) => `${targetKey(c)}/${c.wiring}/${c.store}/${c.scenario}`;
const knownMs = (c: ResultCell) => (typeof c.ms === 'number' && Number.isFinite(c.ms) && c.ms >= 0 ? c.ms : undefined);
const seconds = (ms: number) => (ms / 1000).toFixed(3);
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** What a verdict means, after the verdict itself: how far a pass goes, why the rest did not pass. */
function meaning(c: ResultCell): string {
  switch (c.verdict) {
    case 'pass':
      if (c.exhaustive) return 'every schedule within the bound was explored and the property held.';
      return c.mode === 'sampled'
        ? `${plural(c.schedules, 'random schedule')} held; not a proof.`
        : `stopped at --max-schedules after ${plural(c.schedules, 'schedule')}; not every schedule ran, so not a proof.`;
    case 'fail':
      return `${c.counterexample?.explanation ?? c.reason ?? 'the property does not hold.'}${provenAfter(c)}`;
    case 'allowed':
      return `broken only inside a gap the scenario admits on purpose: ${c.reason ?? '(no reason recorded)'}${provenAfter(c)}`;
    case 'not-applicable':
      return `not applicable to this version: ${c.reason ?? '(no reason recorded)'}`;
    case 'error':
    case 'timeout':
      return `could not be run, which is never a pass: ${c.reason ?? '(no reason recorded)'}`;
  }
}

/** A counterexample as text: what it shows, the cell and schedule that replay it, then the story. */
function counterexampleText(c: ResultCell, resultsFile: string | undefined): string[] {
  const ce = c.counterexample;
  if (!ce) return [];
  return [
    `${c.verdict}, ${ce.steps} steps. ${ce.explanation}${provenAfter(c)}`,
    `cell: ${c.id}`,
    `schedule: ${ce.schedule}`,
    ...(resultsFile === undefined ? [] : [`replay: approval-conformance replay ${resultsFile} --cell ${c.id}`]),
    '',
    ...storyLines(ce),
  ];
}

function testcase(c: ResultCell, time: string | undefined, resultsFile: string | undefined): string {
  const verdict = verdictCell(c);
  const attributes =
    `name="${xmlAttr(`${c.scenario} / ${c.property}`)}" classname="${xmlAttr(`${targetKey(c)}.${c.wiring}.${c.store}`)}"` +
    (time === undefined ? '' : ` time="${time}"`);
  const reason = c.reason ?? c.verdict;
  let outcome: string | undefined;
  switch (c.verdict) {
    case 'fail':
      outcome = `<failure type="fail" message="${xmlAttr(`${verdict}: ${c.counterexample?.explanation ?? reason}`)}">${xmlText(
        (c.counterexample ? counterexampleText(c, resultsFile) : [reason]).join('\n'),
      )}</failure>`;
      break;
    case 'error':
    case 'timeout':
      outcome = `<error type="${c.verdict}" message="${xmlAttr(reason)}">${xmlText(reason)}</error>`;
      break;
    case 'not-applicable':
      outcome = `<skipped message="${xmlAttr(reason)}"/>`;
      break;
  }
  const out = [`${verdict}: ${meaning(c)}`, `cell: ${c.id}`];
  // An allowed cell passes, but its counterexample is worth reading: the gap it went through.
  if (c.verdict === 'allowed' && c.counterexample) out.push('', ...counterexampleText(c, resultsFile));
  if (c.findings && c.findings.length > 0) out.push('', 'findings (behaviour no property covers):', ...c.findings.map((f) => `- ${f}`));
  return [
    `    <testcase ${attributes}>`,
    ...(outcome ? [`      ${outcome}`] : []),
    `      <system-out>${xmlText(out.join('\n'))}</system-out>`,
    '    </testcase>',
  ].join('\n');
}

interface Counts {
  tests: number;
  failures: number;
  errors: number;
  skipped: number;
  /** Milliseconds, each unit counted once; undefined while no cell said how long it took. */
  ms: number | undefined;
}

const count = (cells: readonly ResultCell[], units: ReadonlyMap<string, { readonly ms: number }>): Counts => ({
  tests: cells.length,
  failures: cells.filter((c) => c.verdict === 'fail').length,
  errors: cells.filter((c) => c.verdict === 'error' || c.verdict === 'timeout').length,
  skipped: cells.filter((c) => c.verdict === 'not-applicable').length,
  ms: [...new Set(cells.map(unitKey))].reduce<number | undefined>((sum, key) => {
    const unit = units.get(key);
    return unit === undefined ? sum : (sum ?? 0) + unit.ms;
  }, undefined),
});

const countAttributes = (n: Counts) =>
  `tests="${n.tests}" failures="${n.failures}" errors="${n.errors}"` + (n.ms === undefined ? '' : ` time="${seconds(n.ms)}"`);

/**
 * The JUnit XML of a run: a testsuite per framework version (the targets in their order, then any version that has
 * cells but no target), a testcase per cell. A unit's time is shared by its cells, so each testcase gets an equal
 * part of it and a suite's time counts each unit once: the testcases' times add up to the suite's.
 */
export function junitXml(targets: readonly ResultTarget[], cells: readonly ResultCell[], options: JunitOptions = {}): string {
  const units = new Map<string, { ms: number; cells: number }>();
  for (const c of cells) {
    const ms = knownMs(c);
    if (ms === undefined) continue;
    const unit = units.get(unitKey(c));
    units.set(unitKey(c), { ms: Math.max(unit?.ms ?? 0, ms), cells: (unit?.cells ?? 0) + 1 });
  }
  const byKey = new Map<string, ResultTarget>();
  for (const t of targets) if (!byKey.has(targetKey(t))) byKey.set(targetKey(t), t);
  const keys = [...new Set([...targets.map(targetKey), ...cells.map(targetKey)])];

  const suites = keys.map((key) => {
    const target = byKey.get(key);
    const mine = cells.filter((c) => targetKey(c) === key);
    const n = count(mine, units);
    const properties: [string, string][] = [];
    if (target) {
      properties.push(['spec', target.spec]);
      if (target.source !== undefined) properties.push(['source', target.source]);
      if (target.error !== undefined) properties.push(['error', target.error]);
      for (const [name, version] of Object.entries(target.packages)) properties.push([`package ${name}`, version]);
    }
    const attributes =
      `name="${xmlAttr(key)}" ${countAttributes(n)} skipped="${n.skipped}"` +
      (options.timestamp === undefined ? '' : ` timestamp="${xmlAttr(options.timestamp)}"`);
    return [
      `  <testsuite ${attributes}>`,
      ...(properties.length > 0
        ? ['    <properties>', ...properties.map(([name, value]) => `      <property name="${xmlAttr(name)}" value="${xmlAttr(value)}"/>`), '    </properties>']
        : []),
      ...mine.map((c) => {
        const ms = knownMs(c);
        const unit = units.get(unitKey(c));
        return testcase(c, ms === undefined || unit === undefined ? undefined : seconds(unit.ms / unit.cells), options.resultsFile);
      }),
      '  </testsuite>',
    ].join('\n');
  });

  const total = count(cells, units);
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${xmlAttr(options.name ?? 'approval-conformance')}" ${countAttributes(total)}>`,
    ...suites,
    '</testsuites>',
    '',
  ].join('\n');
}
