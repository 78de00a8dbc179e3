// What a decider asks of the results, computed once for both report formats: per framework (its newest version),
// how the docs' default wiring, the safest documented wiring, the framework's own fix and the guarded one fare on
// each property; and which
// verdicts changed from one version to the next. The reference runtime is the calibration subject, not a framework
// to adopt: it is left out here (see calibration.ts).
import { PROPERTY_IDS, type PropertyId } from '@approval-conformance/core';
import semver from 'semver';
import { frameworks as registered } from '../registry.js';
import type { ResultCell, ResultTarget } from '../results.js';

export const CALIBRATION = 'reference';

const isGuarded = (wiring: string) => wiring.startsWith('guarded-');

/** How one property fares on one wiring of one version, over its stores and scenarios. */
export interface PropertyOutcome {
  readonly status: 'holds' | 'holds-partly-explored' | 'fails' | 'allowed' | 'broken' | 'not-run';
  /** Cells that ran (pass, fail, allowed). */
  readonly ran: number;
  /** The stores where it ran (a store whose cells of it are all n/a never judged it). */
  readonly stores: readonly string[];
  readonly failing: readonly ResultCell[];
}

export interface WiringOutcome {
  readonly wiring: string;
  readonly description?: string;
  readonly guarded: boolean;
  readonly docsDefault: boolean;
  /** The framework's own fix: the page of its docs or examples it comes from. */
  readonly remedy?: string;
  readonly properties: ReadonlyMap<PropertyId, PropertyOutcome>;
  /** Properties that hold in every cell that ran. */
  readonly holding: number;
  /** Properties it was judged on (some cell ran): a wiring made for one scenario is judged on few. */
  readonly judged: number;
  /** The stores it ran on. */
  readonly stores: readonly string[];
  readonly failingCells: number;
}

function outcome(cells: readonly ResultCell[]): PropertyOutcome {
  const ran = cells.filter((c) => c.verdict === 'pass' || c.verdict === 'fail' || c.verdict === 'allowed');
  const failing = cells.filter((c) => c.verdict === 'fail');
  const status: PropertyOutcome['status'] =
    failing.length > 0
      ? 'fails'
      : cells.some((c) => c.verdict === 'error' || c.verdict === 'timeout')
        ? 'broken'
        : cells.some((c) => c.verdict === 'allowed')
          ? 'allowed'
          : ran.length === 0
            ? 'not-run'
            : ran.some((c) => !c.exhaustive)
              ? 'holds-partly-explored'
              : 'holds';
  return { status, ran: ran.length, stores: [...new Set(ran.map((c) => c.store))], failing };
}

/** Each wiring of one version that ran anything, in the order the results list them. */
export function wiringOutcomes(target: ResultTarget, cells: readonly ResultCell[]): WiringOutcome[] {
  const mine = cells.filter((c) => c.framework === target.framework && c.version === target.version && c.wiring !== '*');
  const out: WiringOutcome[] = [];
  const info = new Map((target.wirings ?? []).map((w) => [w.id, w]));
  for (const wiring of [...new Set(mine.map((c) => c.wiring))]) {
    const own = mine.filter((c) => c.wiring === wiring);
    const properties = new Map(PROPERTY_IDS.map((p) => [p, outcome(own.filter((c) => c.property === p))] as const));
    if ([...properties.values()].every((o) => o.status === 'not-run')) continue;
    const description = info.get(wiring)?.description;
    const remedy = info.get(wiring)?.remedy;
    out.push({
      wiring,
      ...(description === undefined ? {} : { description }),
      ...(remedy === undefined || isGuarded(wiring) ? {} : { remedy }),
      guarded: isGuarded(wiring),
      // The docs show the framework's own pattern: a guarded wiring is ours, whatever it was copied from.
      docsDefault: info.get(wiring)?.docsDefault === true && !isGuarded(wiring),
      properties,
      holding: [...properties.values()].filter((o) => o.status === 'holds').length,
      judged: [...properties.values()].filter((o) => o.status !== 'not-run').length,
      stores: [...new Set(own.filter((c) => c.verdict !== 'not-applicable').map((c) => c.store))],
      failingCells: own.filter((c) => c.verdict === 'fail').length,
    });
  }
  return out;
}

/**
 * The wiring that keeps the most properties, then was judged on the most (a wiring made for one scenario is no
 * answer), then fails the fewest cells; the docs' default wins a tie.
 */
const best = (among: readonly WiringOutcome[]) =>
  [...among].sort(
    (a, b) => b.holding - a.holding || b.judged - a.judged || a.failingCells - b.failingCells || Number(b.docsDefault) - Number(a.docsDefault),
  )[0];

export interface FrameworkAnswer {
  readonly framework: string;
  readonly version: string;
  /** The wiring the framework's docs show first, where the results say which. */
  readonly docsDefault?: WiringOutcome;
  /** The documented (unguarded) wiring that keeps the most, of those that are not the framework's own fix. */
  readonly safest?: WiringOutcome;
  /** The framework's own fix that keeps the most, where the version ran one. */
  readonly remedy?: WiringOutcome;
  /** The documented pattern with the approval guard added, where the version ran one. */
  readonly fix?: WiringOutcome;
}

/** The newest version of a framework that ran, by semver where the versions are semver. */
export function newestTarget(framework: string, targets: readonly ResultTarget[], cells: readonly ResultCell[]) {
  const ran = targets.filter((t) => t.framework === framework && !t.error && cells.some((c) => c.framework === framework && c.version === t.version));
  return [...ran].sort((a, b) => (semver.valid(a.version) && semver.valid(b.version) ? semver.compare(b.version, a.version) : 0))[0];
}

/**
 * The newest version of each of a framework's release lines that ran (its descriptor's `line`, where it has several:
 * MCP's legacy 1.x and its MRTR 2.x are different protocols), newest first; one line when it has none.
 */
export function newestOfEachLine(framework: string, targets: readonly ResultTarget[], cells: readonly ResultCell[]): ResultTarget[] {
  const fw = registered().find((f) => f.name === framework);
  const newest = newestTarget(framework, targets, cells);
  // Lines are told apart by release number: a version that is not one (a local build's) stays with the newest.
  const lineOf = (version: string) => (semver.valid(version) ? fw!.line!(version) : undefined);
  if (!fw?.line || !newest || lineOf(newest.version) === undefined) return newest ? [newest] : [];
  const lines = new Set(targets.filter((t) => t.framework === framework).map((t) => lineOf(t.version)).filter((l) => l !== undefined));
  return [...lines]
    .map((l) => newestTarget(framework, targets.filter((t) => t.framework !== framework || lineOf(t.version) === l), cells))
    .filter((t): t is ResultTarget => t !== undefined)
    .sort((a, b) => semver.compare(b.version, a.version));
}

/** Per framework but the calibration subject, in the results' order: its newest version's answer (of each line). */
export function frameworkAnswers(targets: readonly ResultTarget[], cells: readonly ResultCell[]): FrameworkAnswer[] {
  const frameworks = [...new Set(targets.map((t) => t.framework))].filter((f) => f !== CALIBRATION);
  return frameworks.flatMap((framework) => newestOfEachLine(framework, targets, cells)).flatMap((target) => {
    const { framework } = target;
    const wirings = wiringOutcomes(target, cells);
    const documented = wirings.filter((w) => !w.guarded && w.remedy === undefined);
    const docsDefault = documented.find((w) => w.docsDefault);
    const safest = best(documented);
    const remedy = best(wirings.filter((w) => !w.guarded && w.remedy !== undefined));
    const fix = best(wirings.filter((w) => w.guarded));
    return [
      {
        framework,
        version: target.version,
        ...(docsDefault ? { docsDefault } : {}),
        ...(safest ? { safest } : {}),
        ...(remedy ? { remedy } : {}),
        ...(fix ? { fix } : {}),
      },
    ];
  });
}

/** The failing cell that stands for a property on a wiring: the shortest counterexample. */
export const representative = (o: PropertyOutcome) =>
  [...o.failing].sort((a, b) => (a.counterexample?.steps ?? Infinity) - (b.counterexample?.steps ?? Infinity))[0];

/** One verdict that differs between two consecutive versions, on the wirings and stores where it does. */
export interface VerdictChange {
  readonly wirings: readonly string[];
  readonly scenario: string;
  readonly property: PropertyId;
  readonly stores: readonly string[];
  readonly from: string;
  readonly to: string;
  /** pass → fail: a regression; fail → pass: a fix. */
  readonly kind: 'regression' | 'fix' | 'other';
  /** The newer version's failing cell, for its story. */
  readonly failing?: ResultCell;
}

export interface VersionStep {
  readonly framework: string;
  readonly from: string;
  readonly to: string;
  readonly changes: readonly VerdictChange[];
}

const judged = (v: string) => v === 'pass' || v === 'fail' || v === 'allowed';

/**
 * Per framework, each pair of consecutive versions (semver order) and the verdicts that differ between them, on the
 * cells both ran. A wiring or store only one of them ran is not a change.
 */
export function versionSteps(targets: readonly ResultTarget[], cells: readonly ResultCell[]): VersionStep[] {
  const steps: VersionStep[] = [];
  for (const framework of [...new Set(targets.map((t) => t.framework))].filter((f) => f !== CALIBRATION)) {
    const versions = [...new Set(cells.filter((c) => c.framework === framework).map((c) => c.version))]
      .filter((v) => semver.valid(v))
      .sort(semver.compare);
    for (let i = 1; i < versions.length; i++) {
      const [from, to] = [versions[i - 1]!, versions[i]!];
      const key = (c: ResultCell) => `${c.wiring}/${c.store}/${c.scenario}/${c.property}`;
      const before = new Map(cells.filter((c) => c.framework === framework && c.version === from).map((c) => [key(c), c]));
      // Per wiring, the stores where a verdict moved; then wirings that moved alike on the same stores, together.
      const byWiring = new Map<string, { change: Omit<VerdictChange, 'stores' | 'wirings'>; wiring: string; stores: string[] }>();
      for (const after of cells.filter((c) => c.framework === framework && c.version === to)) {
        const was = before.get(key(after));
        if (!was || !judged(was.verdict) || !judged(after.verdict) || was.verdict === after.verdict) continue;
        const kind = was.verdict === 'pass' && after.verdict === 'fail' ? 'regression' : was.verdict === 'fail' && after.verdict === 'pass' ? 'fix' : 'other';
        const id = `${after.wiring}/${after.scenario}/${after.property}/${was.verdict}/${after.verdict}`;
        const group = byWiring.get(id) ?? {
          change: { scenario: after.scenario, property: after.property as PropertyId, from: was.verdict, to: after.verdict, kind, ...(after.verdict === 'fail' ? { failing: after } : {}) },
          wiring: after.wiring,
          stores: [],
        };
        group.stores.push(after.store);
        byWiring.set(id, group);
      }
      const grouped = new Map<string, VerdictChange>();
      for (const { change, wiring, stores } of byWiring.values()) {
        const id = `${change.scenario}/${change.property}/${change.from}/${change.to}/${stores.join(',')}`;
        const known = grouped.get(id);
        grouped.set(id, known ? { ...known, wirings: [...known.wirings, wiring] } : { ...change, wirings: [wiring], stores });
      }
      const changes = [...grouped.values()];
      if (changes.length > 0) steps.push({ framework, from, to, changes });
    }
  }
  return steps;
}
