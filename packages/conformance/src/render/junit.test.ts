import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { validateXML } from 'xmllint-wasm';
import { cell, failing } from '../results.fixtures.js';
import type { ResultCell, ResultTarget } from '../results.js';
import { junitXml } from './junit.js';

const XSD = new URL('./junit-schema/junit-10.xsd', import.meta.url);

/** Jenkins' junit-10.xsd, through libxml2: the errors, none when the document is valid. */
async function schemaErrors(xml: string): Promise<string[]> {
  const result = await validateXML({ xml: [{ fileName: 'junit.xml', contents: xml }], schema: [await readFile(XSD, 'utf8')] });
  return result.errors.map((e) => e.rawMessage);
}

interface Element {
  readonly name: string;
  readonly attrs: Record<string, string>;
  readonly children: Element[];
  text: string;
}

const decode = (s: string) =>
  s.replace(/&(#x[0-9a-f]+|#[0-9]+|lt|gt|amp|quot|apos);/gi, (_, e: string) =>
    e[0] === '#'
      ? String.fromCodePoint(e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10))
      : { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" }[e]!,
  );

/**
 * A small parser for the documents junitXml writes (double-quoted attributes, no CDATA, no DTD), to read the
 * counts and texts back. It throws on anything it does not account for, so it cannot skip over a broken document.
 */
function parse(xml: string): Element {
  const root: Element = { name: '#document', attrs: {}, children: [], text: '' };
  const stack = [root];
  const token = /<\?xml[^?]*\?>|<(\/?)([A-Za-z][\w.-]*)((?:\s+[\w.:-]+="[^"<]*")*)\s*(\/?)>|([^<]+)/gy;
  let at = 0;
  for (let m = token.exec(xml); m !== null; m = token.exec(xml)) {
    at = token.lastIndex;
    const [whole, close, name, attrs, selfClose, text] = m;
    const top = stack[stack.length - 1]!;
    if (text !== undefined) {
      top.text += decode(text);
    } else if (whole.startsWith('<?')) {
      continue;
    } else if (close) {
      if (top.name !== name) throw new Error(`</${name}> closes <${top.name}>`);
      stack.pop();
    } else {
      const element: Element = { name: name!, attrs: {}, children: [], text: '' };
      for (const [, key, value] of attrs!.matchAll(/([\w.:-]+)="([^"]*)"/g)) {
        if (key! in element.attrs) throw new Error(`${name} has ${key} twice`);
        element.attrs[key!] = decode(value!);
      }
      top.children.push(element);
      if (!selfClose) stack.push(element);
    }
  }
  if (at !== xml.length) throw new Error(`cannot read past offset ${at}: ${JSON.stringify(xml.slice(at, at + 40))}`);
  if (stack.length !== 1) throw new Error(`<${stack[stack.length - 1]!.name}> is never closed`);
  return root;
}

const kids = (e: Element, name: string) => e.children.filter((c) => c.name === name);
const only = (e: Element, name: string) => {
  const [first, ...rest] = kids(e, name);
  if (!first || rest.length > 0) throw new Error(`${e.name} has ${rest.length + (first ? 1 : 0)} <${name}>`);
  return first;
};

const HOSTILE = 'x</testcase><testcase name="injected"> ]]> "&<>\' \u0000\u0001\u0008\u000b\u001b\ud800 \r\n\tjavascript:alert(1)';
/** What XML 1.0 can carry of HOSTILE: its illegal characters (NUL, other C0 controls, a lone surrogate) become U+FFFD. */
const HOSTILE_READ = HOSTILE.replace(/[\u0000\u0001\u0008\u000b\u001b\ud800]/g, '\uFFFD');

const story = ['t1 read the record: a1 unspent (v1)', `holder tampered with a1: <script>alert("x")</script> ]]> ${HOSTILE}`, 't1 ran send_email(a1)'];

const v6 = (overrides: Partial<ResultCell> & Pick<ResultCell, 'verdict'>) => cell({ version: '6.0.0', ...overrides });

/** Every verdict, on two versions and one that has no target, with one unit's time shared by its three cells. */
const CELLS: readonly ResultCell[] = [
  v6({ verdict: 'pass', property: 'at-most-once', ms: 900 }),
  v6({ verdict: 'pass', property: 'no-resurrection', mode: 'sampled', exhaustive: false, schedules: 100, ms: 900 }),
  v6({ verdict: 'pass', property: 'binding', exhaustive: false, schedules: 5000, ms: 900 }),
  { ...failing('6.0.0', story), store: 'sqlite', id: 'ai@6.0.0/native-approval/sqlite/double-resume/at-most-once', ms: 2000 },
  v6({
    verdict: 'allowed',
    scenario: 'replay',
    property: 'integrity',
    reason: 'the scenario admits a duplicated "yes" <by design>',
    counterexample: { steps: 3, schedule: 't1:1 t2:1 t1:2', story: ['t2 replayed the approval'], explanation: 'a1 ran on a stale yes.', witness: [0], history: [] },
  }),
  v6({ verdict: 'not-applicable', wiring: 'signed-approval', reason: 'experimental_toolApprovalSecret arrived in 6.0.202' }),
  v6({ verdict: 'error', scenario: 'tool-retry', reason: `worker crashed: ${HOSTILE}`, findings: ['t2 threw: <boom> & "bang"'] }),
  v6({ verdict: 'timeout', scenario: 'crash-restart', reason: 'ran past --timeout 1800' }),
  cell({ version: '7.0.0', verdict: 'fail', exhaustive: false, schedules: 40, wiring: HOSTILE, store: ']]>', counterexample: { steps: 2, schedule: 't1:1 t1:2', story: [HOSTILE], explanation: HOSTILE, witness: [0], history: [] } }),
  cell({ version: '7.0.0', verdict: 'pass', scenario: 'world-drift', property: 'fresh-view', ms: 12 }),
  cell({ framework: 'javascript:alert(1)', version: '1.0.0', verdict: 'error', reason: 'no target: a version 1 results file' }),
];

const TARGETS: readonly ResultTarget[] = [
  { framework: 'ai', version: '6.0.0', spec: 'ai@6', packages: { ai: '6.0.0', '@ai-sdk/provider': '3.0.0' } },
  { framework: 'ai', version: '7.0.0', spec: `ai@file:${HOSTILE}`, packages: { ai: '7.0.0' }, source: `/tmp/${HOSTILE}` },
  { framework: 'ai', version: '8.0.0', spec: 'ai@8', packages: {}, error: 'npm install of ai@8.0.0 failed: E404' },
];

describe('junitXml', () => {
  const xml = junitXml(TARGETS, CELLS, { name: 'approval-conformance run', timestamp: '2025-01-02T03:04:05.678Z', resultsFile: 'reports/results.json' });
  const doc = parse(xml);
  const suitesEl = only(doc, 'testsuites');
  const suites = kids(suitesEl, 'testsuite');
  const suite = (name: string) => suites.find((s) => s.attrs['name'] === name)!;
  const cases = (name: string) => kids(suite(name), 'testcase');

  it('is valid against the Jenkins JUnit schema, hostile strings and all', async () => {
    expect(await schemaErrors(xml)).toEqual([]);
    // The check can fail: an undeclared attribute, a testcase without its name.
    expect(await schemaErrors(xml.replace('<testsuites ', '<testsuites skipped="1" '))).not.toEqual([]);
    expect(await schemaErrors(xml.replace(/<testcase name="[^"]*"/, '<testcase'))).not.toEqual([]);
  });

  it('has a testsuite per version, targets first, and a testcase per cell', () => {
    expect(suites.map((s) => s.attrs['name'])).toEqual(['ai@6.0.0', 'ai@7.0.0', 'ai@8.0.0', 'javascript:alert(1)@1.0.0']);
    expect(suites.flatMap((s) => kids(s, 'testcase')).length).toBe(CELLS.length);
    expect(suitesEl.attrs['name']).toBe('approval-conformance run');
    for (const s of suites) expect(s.attrs['timestamp']).toBe('2025-01-02T03:04:05.678Z');
    const [first] = cases('ai@6.0.0');
    expect(first!.attrs).toMatchObject({ classname: 'ai@6.0.0.native-approval.memory', name: 'double-resume / at-most-once' });
    expect(kids(suite('ai@6.0.0'), 'properties')[0]!.children.map((p) => [p.attrs['name'], p.attrs['value']])).toEqual([
      ['spec', 'ai@6'],
      ['package ai', '6.0.0'],
      ['package @ai-sdk/provider', '3.0.0'],
    ]);
    expect(only(suite('ai@8.0.0'), 'properties').children.map((p) => p.attrs['value'])).toContain('npm install of ai@8.0.0 failed: E404');
  });

  it('counts tests, failures, errors and skipped right on every testsuite, and on testsuites', () => {
    const counted = (testcases: readonly Element[]) => ({
      tests: String(testcases.length),
      failures: String(testcases.filter((t) => kids(t, 'failure').length > 0).length),
      errors: String(testcases.filter((t) => kids(t, 'error').length > 0).length),
    });
    for (const s of suites) {
      const testcases = kids(s, 'testcase');
      expect(s.attrs).toMatchObject({ ...counted(testcases), skipped: String(testcases.filter((t) => kids(t, 'skipped').length > 0).length) });
    }
    expect(suitesEl.attrs).toMatchObject(counted(suites.flatMap((s) => kids(s, 'testcase'))));
    // And the numbers themselves: 11 cells, two fails, error + timeout + error, one n/a.
    expect(suitesEl.attrs).toMatchObject({ tests: '11', failures: '2', errors: '3' });
    expect(suite('ai@6.0.0').attrs).toMatchObject({ tests: '8', failures: '1', errors: '2', skipped: '1' });
    expect(suite('ai@7.0.0').attrs).toMatchObject({ tests: '2', failures: '1', errors: '0', skipped: '0' });
    expect(suite('ai@8.0.0').attrs).toMatchObject({ tests: '0', failures: '0', errors: '0', skipped: '0' });
  });

  it('shares a unit’s time among its cells, so that the testcases add up to their suite', () => {
    const times = cases('ai@6.0.0').map((t) => t.attrs['time']);
    // Three cells of one unit share its 900 ms; the fail ran 2 s alone; the rest did not say.
    expect(times).toEqual(['0.300', '0.300', '0.300', '2.000', undefined, undefined, undefined, undefined]);
    expect(suite('ai@6.0.0').attrs['time']).toBe('2.900');
    expect(suite('ai@7.0.0').attrs['time']).toBe('0.012');
    expect(suite('ai@8.0.0').attrs['time']).toBeUndefined();
    expect(suitesEl.attrs['time']).toBe('2.912');
  });

  it('gives a fail its story, an error or timeout its reason, n/a a skip; pass and allowed pass', () => {
    const [pass, sampled, partial, fail, allowed, na, error, timeout] = cases('ai@6.0.0');
    const outcome = (t: Element) => t.children.filter((c) => c.name !== 'system-out').map((c) => c.name);
    expect([pass, sampled, partial, allowed].map((t) => outcome(t!))).toEqual([[], [], [], []]);

    const failure = only(fail!, 'failure');
    expect(failure.attrs).toEqual({ type: 'fail', message: "fail (4 steps): a1's effect reached the world twice." });
    expect(failure.text).toContain('cell: ai@6.0.0/native-approval/sqlite/double-resume/at-most-once\nschedule: t1:1 t2:1 t1:2 t2:2');
    expect(failure.text).toContain('Proven shortest after 18 schedules.');
    expect(failure.text).toContain('replay: approval-conformance replay reports/results.json --cell ai@6.0.0/native-approval/sqlite/double-resume/at-most-once');
    expect(failure.text).toContain(`>  1. t1 read the record: a1 unspent (v1)\n   2. ${story[1]!.replace(HOSTILE, HOSTILE_READ)}\n   3. t1 ran send_email(a1)`);

    expect(only(error!, 'error').attrs).toEqual({ type: 'error', message: `worker crashed: ${HOSTILE_READ}` });
    expect(only(error!, 'error').text).toBe(`worker crashed: ${HOSTILE_READ}`);
    expect(only(timeout!, 'error').attrs).toEqual({ type: 'timeout', message: 'ran past --timeout 1800' });
    expect(only(na!, 'skipped').attrs).toEqual({ message: 'experimental_toolApprovalSecret arrived in 6.0.202' });
    expect(only(allowed!, 'system-out').text).toMatch(/^allowed \(3 steps\): broken only inside a gap the scenario admits on purpose: the scenario admits a duplicated "yes" <by design>/);
    expect(only(allowed!, 'system-out').text).toContain('>  1. t2 replayed the approval');
    expect(only(error!, 'system-out').text).toContain('findings (behaviour no property covers):\n- t2 threw: <boom> & "bang"');
  });

  it('says in every testcase how far its verdict goes, so that a sampled or partial pass is not read as a proof', () => {
    const out = (t: Element | undefined) => only(t!, 'system-out').text.split('\n')[0];
    const [pass, sampled, partial] = cases('ai@6.0.0');
    expect(out(pass)).toBe('pass (18 schedules): every schedule within the bound was explored and the property held.');
    expect(out(sampled)).toBe('pass (sampled 100): 100 random schedules held; not a proof.');
    expect(out(partial)).toBe('pass (partial 5000): stopped at --max-schedules after 5000 schedules; not every schedule ran, so not a proof.');
    const [partialFail] = cases('ai@7.0.0');
    expect(only(partialFail!, 'failure').attrs['message']).toBe(`fail (2 steps; partial 40): ${HOSTILE_READ}`);
    expect(only(partialFail!, 'failure').text).toContain('not every schedule ran, so a shorter one may exist.');
  });

  it('keeps hostile names and stories as text: nothing injected, nothing lost but what XML cannot carry', () => {
    const [hostile] = cases('ai@7.0.0');
    expect(hostile!.attrs['classname']).toBe(`ai@7.0.0.${HOSTILE_READ}.]]>`);
    expect(only(hostile!, 'failure').text).toContain(`>  1. ${HOSTILE_READ}`);
    expect(suites.flatMap((s) => kids(s, 'testcase')).some((t) => t.attrs['name'] === 'injected')).toBe(false);
    expect(only(suite('ai@7.0.0'), 'properties').children.map((p) => p.attrs['value'])).toEqual([`ai@file:${HOSTILE_READ}`, `/tmp/${HOSTILE_READ}`, '7.0.0']);
    expect(xml).not.toContain('<![CDATA[');
    expect(xml).not.toMatch(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/);
  });

  it('writes a valid document for a run without cells', async () => {
    const empty = junitXml([], []);
    expect(await schemaErrors(empty)).toEqual([]);
    expect(only(parse(empty), 'testsuites').attrs).toEqual({ name: 'approval-conformance', tests: '0', failures: '0', errors: '0' });
  });
});
