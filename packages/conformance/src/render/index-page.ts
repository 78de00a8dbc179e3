// The index, for the two kinds of reader who read rather than run: a team choosing a framework, and whoever
// publishes a comparison. From the top: the one-minute answer (each framework's newest version, its docs' default
// wiring beside its safest documented one, the framework's own fix and the guarded one, property by property, each
// failure in one plain line linking to its story; a framework run apart and published beside these results, from its
// own run, companions.ts); per framework, what still fails with each of those; what changed between versions;
// what each property protects against; the reference runtime's calibration; every version by wiring; the details.
import { PROPERTY_IDS, type PropertyId } from '@approval-conformance/core';
import { staleTriage, triageOf, type TriageEntry } from '../triage.js';
import type { ResultCell } from '../results.js';
import { within, type Block, type Cell, type Inline, type Item } from './blocks.js';
import { calibration } from './calibration.js';
import {
  CALIBRATION,
  frameworkAnswers,
  representative,
  versionSteps,
  wiringOutcomes,
  type FrameworkAnswer,
  type PropertyOutcome,
  type WiringOutcome,
} from './decider.js';
import { guardReadme } from './fix.js';
import { frameworkRepros, reproFor } from '../repro/index.js';
import { brokenCount, storesThatRan } from './grid.js';
import { HARMS, PROPERTY_WORDS, plainStory } from './plain.js';
import type { CompanionRun } from './companions.js';
import type { ReportInput } from './markdown.js';

/** The role of a wiring that is the framework's own fix, as its docs or examples show it. */
const OWN_FIX = "framework's fix";


const STATUS_CLASS: Record<PropertyOutcome['status'], string> = {
  holds: 'pass',
  'holds-partly-explored': 'allowed',
  fails: 'fail',
  allowed: 'allowed',
  broken: 'error',
  'not-run': 'not-applicable',
};

/** The properties some cell of the results judged, in the contract's order. */
const propertiesOf = (cells: readonly ResultCell[]) => PROPERTY_IDS.filter((p) => cells.some((c) => c.property === p));

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** Links to what the framework's own docs or tracker say about a failing cell. */
function triageLinks(f: Inline, cell: ResultCell | undefined, triage: readonly TriageEntry[]): string {
  if (!cell) return '';
  const entries = triageOf(cell, triage);
  return entries.map((e) => ` (${f.link(f.text('tracked'), e.link, e.note)})`).join('');
}

/**
 * Whether the framework's own fix keeps more than its safest other documented wiring: then the fix is the one marked
 * safest, so that a reader going down the column never picks the worse of the two.
 */
const fixIsSafest = (a: FrameworkAnswer) => a.remedy !== undefined && (a.safest === undefined || share(a.remedy) > share(a.safest));

/** The documented wiring (the framework's own fix included) that keeps the most: what "safest" names. */
const safestOf = (a: FrameworkAnswer) => (fixIsSafest(a) ? a.remedy : a.safest);

/** The wirings the one-minute answer shows for a framework, each with its role. */
function shownRoles(a: FrameworkAnswer): [string, WiringOutcome][] {
  const shown: [string, WiringOutcome][] = [];
  const fixFirst = fixIsSafest(a);
  if (a.docsDefault) shown.push([a.docsDefault === a.safest && !fixFirst ? 'default and safest' : 'default', a.docsDefault]);
  if (a.safest && a.safest !== a.docsDefault) shown.push([fixFirst ? 'best without the fix' : 'safest', a.safest]);
  if (a.remedy) shown.push([fixFirst ? `safest: ${OWN_FIX}` : OWN_FIX, a.remedy]);
  if (a.fix) shown.push(['guarded', a.fix]);
  return shown;
}

/** The failures the one-minute answer shows: for each framework's shown wirings, each failing property's story cell. */
export function answerFailures(input: Pick<ReportInput, 'targets' | 'cells'>): ResultCell[] {
  return frameworkAnswers(input.targets, input.cells).flatMap((a) =>
    shownRoles(a).flatMap(([, w]) => [...w.properties.values()].filter((o) => o.status === 'fails').map((o) => representative(o)!)),
  );
}

/** Every failing cell of a wiring, whatever its property. */
const failingOf = (w: WiringOutcome) => [...w.properties.values()].flatMap((o) => o.failing);

/** ` (reproduce)`, linking to the cell's standalone reproduction where the reports have one. */
function reproLink(f: Inline, cell: ResultCell, cells: readonly ResultCell[]): string {
  return reproFor(cell, frameworkRepros(), cells).kind === 'repro' && !cell.version.endsWith('+local')
    ? ` (${f.link(f.text('reproduce'), f.reproHref(cell))})`
    : '';
}

/** Column heads for the grid: what a failure does, told apart for every property (the harms pair them up). */
const SHORT: Readonly<Record<PropertyId, string>> = {
  'at-most-once': 'an approved action runs twice',
  'no-resurrection': 'a used approval is offered again',
  'fresh-view': 'a turn acts on a stale view',
  binding: 'it runs on a changed account',
  'shown-is-recorded': 'the user approves a card the server lost',
  disclosure: 'the user is told the wrong outcome',
  'exactly-once-delivery': 'a network retry applies it twice',
  integrity: 'it runs what no one approved',
};

const MARK: Record<PropertyOutcome['status'], string> = {
  holds: '✓',
  'holds-partly-explored': '◐',
  fails: '✗',
  allowed: '≈',
  broken: '!',
  'not-run': '·',
};

/** How many properties a wiring keeps, as a share of those it was judged on (for ranking). */
const share = (w: WiringOutcome | undefined) => (w && w.judged > 0 ? w.holding / w.judged : -1);

/**
 * A framework's answer with the cells it comes from and the links into their reports: this run's, or those of a run
 * published beside it (`run`), whose pages are in its own folder.
 */
interface Answer {
  readonly a: FrameworkAnswer;
  readonly f: Inline;
  readonly cells: readonly ResultCell[];
  readonly run?: CompanionRun;
}

/**
 * Every framework of the one-minute answer, the one whose safest documented wiring (or own fix) keeps the most first
 * (the grid's order): this run's, and those the runs published beside it add.
 */
function answersOf(f: Inline, input: ReportInput): Answer[] {
  const own = frameworkAnswers(input.targets, input.cells).map((a): Answer => ({ a, f, cells: input.cells }));
  const beside = (input.companions?.runs ?? []).flatMap((run) => {
    const there = within(f, run.folder);
    return frameworkAnswers(run.targets, run.cells).map((a): Answer => ({ a, f: there, cells: run.cells, run }));
  });
  return [...own, ...beside].sort((x, y) => share(safestOf(y.a)) - share(safestOf(x.a)) || x.a.framework.localeCompare(y.a.framework));
}

const listed = (items: readonly string[]) => (items.length < 2 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`);

/**
 * One or two sentences from the results: which documented wiring keeps at-most-once (where the results checked it:
 * a run of other properties says nothing of it), and what the guard keeps.
 */
function headline(answers: readonly FrameworkAnswer[], properties: readonly PropertyId[]): string {
  // A framework with several release lines has a row for the newest of each (MCP's 1.x and 2.x): named by version.
  const names = answers.map((a) => a.framework);
  const lines = new Set(names.filter((n, i) => names.indexOf(n) !== i));
  const frameworks = new Set(names).size;
  const newest = 'at their newest version';
  const apart = lines.size > 0 && frameworks > 1 ? ` Each release line of ${listed([...lines])} is judged apart, at its newest version.` : '';
  const keeping = answers.flatMap((a) =>
    [a.safest, a.remedy, a.docsDefault]
      .filter((w): w is WiringOutcome => w !== undefined && w.properties.get('at-most-once')?.status === 'holds')
      .slice(0, 1)
      .map((w) => `${lines.has(a.framework) ? `${a.framework} ${a.version}` : a.framework} (${w.wiring})`),
  );
  const documented = answers.map(safestOf).filter((w): w is WiringOutcome => w !== undefined);
  const guarded = answers.map((a) => a.fix).filter((w): w is WiringOutcome => w !== undefined);
  // What the guard still fails, where every such failure has its records in memory: said, since a durable store is
  // what the guard's README asks for.
  const guardFails = [...new Set(guarded.flatMap((w) => [...w.properties].filter(([, o]) => o.status === 'fails').map(([p]) => p)))];
  const onlyInMemory = guardFails.length > 0 && guarded.every((w) => [...w.properties.values()].every((o) => o.failing.every((c) => c.store === 'memory')));
  const inMemory = onlyInMemory ? `, and it fails ${listed(guardFails)} only with its records in memory` : '';
  const range = (ws: readonly WiringOutcome[]) => {
    const lows = ws.map((w) => `${w.holding} of ${w.judged}`);
    const sorted = [...ws].sort((a, b) => share(a) - share(b));
    return lows.length === 0 ? '' : sorted.length === 1 || share(sorted[0]) === share(sorted.at(-1)) ? `${sorted[0]!.holding} of ${sorted[0]!.judged}` : `from ${sorted[0]!.holding} of ${sorted[0]!.judged} to ${sorted.at(-1)!.holding} of ${sorted.at(-1)!.judged}`;
  };
  // A report of one framework (a row published on its own, reports/<framework>/) names it rather than counting.
  const one = frameworks === 1 ? answers[0]!.framework : undefined;
  const first = !properties.includes('at-most-once')
    ? 'These results do not check at-most-once, so they do not say which wiring keeps an approved action to one run.'
    : one !== undefined
      ? lines.size > 0
        ? `Of ${one}'s ${answers.length} release lines, at their newest version, ${keeping.length === 0 ? 'none has' : keeping.length === answers.length ? 'every one has' : `only ${listed(keeping)} has`} a documented wiring that keeps an approved action to one run under every schedule explored.`
        : `At its newest version, ${one} ${keeping.length === 0 ? 'has no' : 'has a'} documented wiring that keeps an approved action to one run under every schedule explored.`
      : keeping.length === 0
        ? `Of the ${frameworks} frameworks here, ${newest}, none has a documented wiring that keeps an approved action to one run under every schedule explored.`
        : `Of the ${frameworks} frameworks here, ${newest}, ${keeping.length === answers.length ? 'every one has' : `only ${listed(keeping)} ${keeping.length === 1 ? 'has' : 'have'}`} a documented wiring that keeps an approved action to one run under every schedule explored.`;
  const second = documented.length > 0 ? ` The safest documented wiring${one !== undefined ? '' : ' of each'} keeps ${range(documented)} properties${guarded.length > 0 ? `; with the approval guard added, ${range(guarded)}${inMemory}` : ''}.` : '';
  return first + apart + second;
}

/** The one-minute answer: a headline from the results, then a grid, a row per framework and role, a mark per property. */
function summaryTable(f: Inline, input: ReportInput): Block[] {
  const answers = answersOf(f, input);
  if (answers.length === 0) return [];
  const runs = input.companions?.runs ?? [];
  const properties = propertiesOf([...input.cells, ...runs.flatMap((r) => r.cells)].filter((c) => c.framework !== CALIBRATION));
  const rows: Cell[][] = [];
  for (const { a, f: g, run } of answers) {
    // Roles that read the same on every property share a row: `default and safest`, `default, guarded`.
    const groups: { roles: string[]; w: WiringOutcome }[] = [];
    for (const [role, w] of shownRoles(a)) {
      const same = groups.find((g) => properties.every((p) => g.w.properties.get(p)?.status === w.properties.get(p)?.status) && g.w.wiring === w.wiring);
      if (same) same.roles.push(role);
      else groups.push({ roles: [role], w });
    }
    // A row from a run published apart links that run's reports, and says it is its own run.
    const own = run ? `${f.br}${g.link(f.text('its own run'), g.indexHref)}` : '';
    groups.forEach(({ roles, w }, i) => {
      const name = i === 0 ? `${g.link(f.strong(f.text(`${a.framework} ${a.version}`)), g.pageHref(a.framework))}${own}` : '';
      const role = `${f.text(roles.join(', '))}: ${f.code(w.wiring)}${w.remedy ? ` ${f.link(f.text('(page)'), w.remedy)}` : ''}`;
      const marks: Cell[] = properties.map((p) => {
        const o = w.properties.get(p);
        const status = o?.status ?? 'not-run';
        const cell = status === 'fails' ? representative(o!) : undefined;
        const mark = cell ? g.link(f.text(MARK[status]), g.storyHref(cell), plainStory(cell.scenario, p)) : f.text(MARK[status]);
        return { inline: mark, className: STATUS_CLASS[status] };
      });
      rows.push([name, role, ...marks]);
    });
  }
  const head = [f.text('framework'), f.text('wiring'), ...properties.map((p) => `${f.code(p)}${f.br}${f.text(SHORT[p])}`)];
  return [
    { kind: 'h', level: 2, text: 'The one-minute answer', id: 'answer' },
    { kind: 'p', inline: f.strong(f.text(headline(answers.map((x) => x.a), properties))) },
    {
      kind: 'p',
      inline: f.text(
        "Each framework at its newest version (of each release line, where it has several), the closest to safe first: the wiring its docs show first (default), the documented wiring that keeps the most properties (safest; where the framework's own fix keeps more, the fix is the one marked safest, and the other reads best without the fix), " +
          "the framework's own fix where its docs or examples show one (with its page), and the documented pattern with the approval guard added (guarded: our fix). " +
          '✓ holds under every schedule of every scenario and store; ✗ fails (it links to the shortest failure\'s story); ◐ holds where explored, not every schedule; ! no verdict (error or timeout); · not checked. ' +
          'Below, per framework, each failure in one line, with where its docs or tracker admit it and a standalone reproduction.',
      ) + besideThis(f, answers),
    },
    { kind: 'table', head, rows, className: 'summary' },
    ...leftOut(f, input),
  ];
}

/** Which rows come from a run published apart (its own run), with a link to its reports; nothing where none does. */
function besideThis(f: Inline, answers: readonly Answer[]): string {
  const runs = [...new Set(answers.flatMap((x) => (x.run ? [x.run] : [])))];
  if (runs.length === 0) return '';
  const from = runs.map((run) => {
    const names = answers.filter((x) => x.run === run).map((x) => x.a.framework);
    return `${f.text(`${listed(names)}, from`)} ${f.link(f.text(`${run.folder}/`), within(f, run.folder).indexHref)}`;
  });
  const one = answers.filter((x) => x.run).length === 1;
  return ` ${f.text(`${one ? 'A row comes from its own run' : 'Some rows come from their own runs'}, published apart with the same options as this one: `)}${from.join(f.text('; '))}${f.text('.')}`;
}

/** The runs published beside this one that hold a framework this answer has not, and why each is not in it. */
function leftOut(f: Inline, input: ReportInput): Block[] {
  const left = input.companions?.left ?? [];
  if (left.length === 0) return [];
  const items = left.map((l) => {
    const file = f.code(`${l.folder}/results.json`);
    return l.frameworks.length > 0
      ? `${f.text(`${listed(l.frameworks)}, run in`)} ${file}${f.text(`: ${l.why}.`)}`
      : `${f.text('The run in')} ${file}${f.text(`, which could not be read: ${l.why.replace(/\.?$/, '.')}`)}`;
  });
  return [{ kind: 'p', inline: f.strong(f.text('Not in this answer, although published beside it:')) }, { kind: 'ul', items }];
}

/** Every failing property of a wiring, one plain line each. */
function failures(f: Inline, w: WiringOutcome, triage: readonly TriageEntry[]): string[] {
  return [...w.properties.entries()]
    .filter(([, o]) => o.status === 'fails')
    .map(([p, o]) => {
      const cell = representative(o)!;
      const stores = [...new Set(o.failing.map((c) => c.store))];
      return `${f.code(p)} (${f.text(PROPERTY_WORDS[p].harm)}): ${f.link(f.text(plainStory(cell.scenario, p)), f.storyHref(cell))}; on ${f.text(stores.join(', '))}${triageLinks(f, cell, triage)}${reproLink(f, cell, failingOf(w))}`;
    });
}

/**
 * How many properties a wiring keeps under every schedule, and what the others are where none fails: a pass from a
 * cut-short exploration, a failure inside an admitted gap or no verdict is not "keeps".
 */
function keeps(w: WiringOutcome): string {
  const count = (status: PropertyOutcome['status']) => [...w.properties.values()].filter((o) => o.status === status).length;
  if (w.holding === w.judged) return `keeps all ${plural(w.holding, 'property', 'properties')} it was checked for, in every scenario and store.`;
  const others = [
    [count('holds-partly-explored'), 'holds where explored, not under every schedule', 'hold where explored, not under every schedule'],
    [count('allowed'), 'fails only inside a gap the scenario admits', 'fail only inside a gap the scenario admits'],
    [count('broken'), 'has no verdict (error or timeout)', 'have no verdict (error or timeout)'],
  ] as const;
  const rest = others.filter(([n]) => n > 0).map(([n, one, many]) => `${n} ${n === 1 ? one : many}`);
  const kept = `keeps ${w.holding} of the ${plural(w.judged, 'property', 'properties')} it was checked for`;
  return rest.length === 0 ? `${kept}.` : `${kept} under every schedule; ${rest.join('; ')}.`;
}

function wiringItem(f: Inline, title: string, w: WiringOutcome, triage: readonly TriageEntry[], after = ''): Item {
  const fails = failures(f, w, triage);
  const what = w.description ? ` ${f.text(`(${w.description})`)}` : '';
  const verdict = f.text(`: ${keeps(w)}`);
  // What the item adds (the fix's page, how to add the guard) comes before the list of what still fails.
  const inline = `${f.strong(`${f.text(title)} ${f.code(w.wiring)}`)}${what}${verdict}${after}${fails.length === 0 ? '' : f.text(' Still fails:')}`;
  return fails.length === 0 ? inline : { inline, items: fails };
}

/** Per framework: the docs' default, the safest documented wiring, the fix, and what the framework itself says. */
function perFramework(f: Inline, input: ReportInput, triage: readonly TriageEntry[]): Block[] {
  const blocks: Block[] = [];
  // In the grid's order, closest to safe first. A framework with a row per release line has a section per line.
  const answers = answersOf(f, input);
  const lined = (framework: string) => answers.filter((x) => x.a.framework === framework).length > 1;
  for (const { a, f: g, cells, run } of answers) {
    blocks.push({ kind: 'h', level: 3, text: `${a.framework} ${a.version}`, id: lined(a.framework) ? `framework-${a.framework}-${a.version}` : `framework-${a.framework}` });
    const items: Item[] = [];
    if (run) {
      const when = run.updated ? `, last cell written ${run.updated}` : '';
      items.push(`${f.text('From its own run, published apart with the same options as this one:')} ${g.link(f.text(`${run.folder}/`), g.indexHref)}${f.text(`${when}.`)}`);
    }
    const fixFirst = fixIsSafest(a);
    const title = fixFirst ? 'The best documented wiring without the fix' : 'The safest documented wiring';
    if (a.docsDefault && a.docsDefault !== a.safest) items.push(wiringItem(g, "The docs' default,", a.docsDefault, triage));
    if (a.safest) items.push(wiringItem(g, a.safest === a.docsDefault ? `${title}, and the docs' default,` : `${title},`, a.safest, triage));
    if (a.remedy) {
      const page = ` ${f.link(f.text('The page it comes from'), a.remedy.remedy!)}.`;
      items.push(wiringItem(g, fixFirst ? "The framework's own fix, the safest documented wiring," : "The framework's own fix,", a.remedy, triage, page));
    }
    if (a.fix) {
      const how = ` ${f.text('How to add it:')} ${f.link(f.text("the guard's README"), guardReadme(input.dir))} ${f.text('(@approval-conformance/guard, not on the registry yet: its Install section has the command that works today; its records in memory, SQLite or PostgreSQL, each backend tested by this suite).')}`;
      items.push(wiringItem(g, 'The fix, the approval guard added:', a.fix, triage, how));
    }
    const own = triage.filter((e) => e.framework === a.framework && cells.some((c) => c.framework === a.framework && c.version === a.version && triageOf(c, [e]).length > 0));
    for (const e of own) items.push(`${f.text(`${a.framework} says: ${e.note}`)} ${f.link(f.text('(source)'), e.link)}`);
    items.push(g.link(f.text(`Every version, wiring and cell of ${a.framework}`), g.pageHref(a.framework)));
    blocks.push({ kind: 'ul', items });
  }
  return blocks.length === 0 ? [] : [{ kind: 'h', level: 2, text: 'Per framework: what to use, and what still fails', id: 'per-framework' }, ...blocks];
}

/** The verdicts that changed from one version to the next, regressions marked. */
function changes(f: Inline, input: ReportInput): Block[] {
  const steps = versionSteps(input.targets, input.cells);
  const frameworks = [...new Set(input.targets.map((t) => t.framework))].filter((x) => x !== CALIBRATION);
  const items = frameworks.flatMap((framework) => {
    const mine = steps.filter((s) => s.framework === framework);
    const versions = new Set(input.cells.filter((c) => c.framework === framework).map((c) => c.version));
    if (versions.size < 2) return [];
    if (mine.length === 0) return [`${f.strong(f.text(framework))}${f.text(`: no verdict changes across ${[...versions].join(', ')}.`)}`];
    return mine.map((s) => {
      const parts = s.changes.map((c) => {
        const where = `${f.text(`${c.scenario} / ${c.property} on`)} ${c.wirings.map((w) => f.code(w)).join(', ')} ${f.text(`(${c.stores.join(', ')})`)}`;
        const label = c.kind === 'regression' ? f.strong(f.text('regression')) : c.kind === 'fix' ? f.text('fixed') : f.text(`${c.from} → ${c.to}`);
        const story = c.failing ? `: ${f.link(f.text(plainStory(c.scenario, c.property)), f.storyHref(c.failing))}` : '';
        return `${label}: ${where}${story}`;
      });
      return `${f.strong(f.text(`${framework} ${s.to}`))} ${f.text(`(against ${s.from}):`)} ${parts.join('; ')}`;
    });
  });
  if (items.length === 0) return [];
  return [
    { kind: 'h', level: 2, text: 'What changed between versions', id: 'changes' },
    {
      kind: 'p',
      inline:
        f.text('Between consecutive versions these results ran, on the cells both ran; a regression is a pass that became a fail. ') +
        f.code('approval-conformance bisect') +
        f.text(' finds the exact release where a verdict changes.'),
    },
    { kind: 'ul', items },
  ];
}

function propertyTable(f: Inline, input: ReportInput): Block[] {
  const properties = propertiesOf(input.cells);
  return [
    { kind: 'h', level: 2, text: 'What each property protects against', id: 'properties' },
    {
      kind: 'p',
      inline: f.text(`Most severe first: ${HARMS.map((h) => `${h.harm} (${h.properties.join(', ')})`).join('; ')}.`),
    },
    {
      kind: 'table',
      head: [f.text('property'), f.text('protects against'), f.text('a failure means')],
      rows: properties.map((p) => [f.code(p), f.text(PROPERTY_WORDS[p].protects), f.text(PROPERTY_WORDS[p].harm)]),
    },
  ];
}

function calibrationBlocks(f: Inline, input: ReportInput): Block[] {
  const c = calibration(input.cells);
  if (!input.targets.some((t) => t.framework === CALIBRATION)) return [];
  const verdict = c
    ? `${c.agree}/${c.total} of its double-resume cells agree with the design model (at-most-once and no-resurrection, every switch setting and store).` +
      (c.disagreeing.length > 0 ? ` Disagreeing: ${c.disagreeing.map((d) => `${d.cell.id} (model: ${d.model}, suite: ${d.cell.verdict})`).join(', ')}.` : '')
    : 'This run has none of its double-resume cells, so it does not say whether the suite agrees with the design model.';
  const failing = input.cells.filter((x) => x.framework === CALIBRATION && x.verdict === 'fail').length;
  return [
    { kind: 'h', level: 2, text: 'Calibration: the reference runtime', id: 'calibration' },
    {
      kind: 'p',
      inline:
        f.text(
          "The reference runtime is the suite's own, built with the essay's three switches (how the spend is written, whether a turn re-reads the record, " +
            'whether turns are serialised): not a framework to adopt, but the check that the suite finds what the design model predicts. ',
        ) +
        f.strong(f.text(verdict)) +
        f.text(
          ` Its ${failing} failing cells are the switch settings the model finds unsafe, and scenarios outside the model (world drift, retries, errors, ` +
            'crashes, tampering) that no switch addresses. ',
        ) +
        f.link(f.text('Its table'), f.pageHref(CALIBRATION)) +
        f.text('; ') +
        f.code('approval-conformance model') +
        f.text(' prints the design model.'),
    },
  ];
}

/** Every version by property: on how many of its wirings the property holds, linking to the framework's page. */
function everyVersion(f: Inline, input: ReportInput): Block[] {
  const targets = input.targets.filter((t) => t.framework !== CALIBRATION);
  if (targets.length === 0) return [];
  const properties = propertiesOf(input.cells.filter((c) => c.framework !== CALIBRATION));
  const rows = targets.map((t) => {
    const wirings = wiringOutcomes(t, input.cells);
    const cells: Cell[] = properties.map((p) => {
      const judged = wirings.filter((w) => w.properties.get(p)!.status !== 'not-run');
      if (judged.length === 0) return { inline: '–', className: 'not-applicable' };
      const holding = judged.filter((w) => w.properties.get(p)!.status === 'holds');
      const text = `holds on ${holding.length} of ${plural(judged.length, 'wiring')}`;
      const byWiring = `${f.pageHref(t.framework)}#by-wiring`;
      return { inline: f.link(holding.length === 0 ? f.strong(f.text(text)) : f.text(text), byWiring), className: holding.length === judged.length ? 'pass' : holding.length === 0 ? 'fail' : 'allowed' };
    });
    const mine = input.cells.filter((c) => c.framework === t.framework && c.version === t.version);
    const broken = brokenCount(mine);
    return [f.link(f.text(`${t.framework}@${t.version}`), f.pageHref(t.framework)), ...cells, broken ? { inline: String(broken), className: 'error' } : ''];
  });
  return [
    { kind: 'h', level: 2, text: 'Every version', id: 'versions' },
    {
      kind: 'p',
      inline: f.text(
        'Per version and property: on how many of its wirings the property holds in every scenario and store (every schedule within the bound explored). ' +
          'Guarded wirings count among them. A framework page breaks each down by wiring and store, cell by cell. Error and timeout cells are counted apart and never as a pass.',
      ),
    },
    { kind: 'table', head: [f.text('version'), ...properties.map((p) => f.code(p)), f.text('errors')], rows },
  ];
}

function details(f: Inline, input: ReportInput, triage: readonly TriageEntry[]): Block[] {
  const blocks: Block[] = [];
  const broken = input.targets.filter((t) => t.error);
  if (broken.length > 0) {
    blocks.push({ kind: 'h', level: 2, text: 'Versions that did not run' }, { kind: 'ul', items: broken.map((t) => f.text(`${t.framework}@${t.version}: ${t.error}`)) });
  }
  const stale = staleTriage(triage, input.cells, input);
  if (stale.length > 0) {
    blocks.push(
      { kind: 'h', level: 2, text: 'Stale triage entries', id: 'stale-triage' },
      { kind: 'p', inline: f.text('These metadata entries explain no failing cell here: the gap may be fixed, or the entry names something that does not exist. Update or remove them.') },
      { kind: 'ul', items: stale.map((s) => `${f.text(`${s.entry.where}: ${s.why}`)} (${f.link(f.text('link'), s.entry.link)})`) },
    );
  }
  blocks.push({ kind: 'p', inline: f.text(`Stores that ran: ${storesThatRan(input.cells).join(', ') || 'none'}. (PostgreSQL runs only where a server was given.)`) });
  blocks.push({
    kind: 'details',
    summary: `Installed packages (${plural(input.targets.length, 'version')})`,
    blocks: [
      {
        kind: 'ul',
        items: input.targets.map((t) => {
          const pkgs = Object.entries(t.packages).map(([n, v]) => `${n} ${v}`).join(', ');
          return f.text(`${t.framework}@${t.version} (asked as ${t.spec}): ${pkgs || 'built in'}`);
        }),
      },
    ],
  });
  return blocks;
}

/** The index's blocks below its title, environment line and incomplete-run note. */
export function indexBlocks(f: Inline, input: ReportInput): Block[] {
  const triage = input.triage ?? [];
  return [
    ...summaryTable(f, input),
    ...perFramework(f, input, triage),
    ...changes(f, input),
    ...propertyTable(f, input),
    ...calibrationBlocks(f, input),
    ...everyVersion(f, input),
    ...details(f, input, triage),
  ];
}
