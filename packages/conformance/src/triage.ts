// Triage metadata, as wpt-metadata keeps it: `metadata/<framework>.yml` beside the reports, a list of entries that
// each match cells (by version range, wiring, store, scenario, property) and link to where the framework's own docs
// or issue tracker admit or track that gap, with one line of context. Metadata never changes a verdict: it explains
// one. An entry that matches no failing cell is stale, and the runner says so.
import { readdir, readFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import semver from 'semver';
import { parse } from 'yaml';
import { PROPERTY_IDS, SCENARIOS } from '@approval-conformance/core';
import { frameworkNames } from './frameworks.js';
import type { ResultCell, ResultTarget, RunOptions } from './results.js';
import { UsageError } from './usage-error.js';

export interface TriageEntry {
  readonly framework: string;
  /** Where it was read, for messages: `metadata/ai.yml, entry 2`. */
  readonly where: string;
  /** A semver range; any version when absent. */
  readonly versions?: string;
  readonly wiring?: readonly string[];
  readonly store?: readonly string[];
  readonly scenario?: readonly string[];
  readonly property?: readonly string[];
  /** An https URL on the framework's docs or issue tracker. */
  readonly link: string;
  /** One line: what that page says. */
  readonly note: string;
}

const KEYS = ['versions', 'wiring', 'store', 'scenario', 'property', 'link', 'note'] as const;
const NAME = /^[a-z][a-z0-9-]{0,63}$/;
const FIX = 'Fix the entry or remove it.';

/** A field that names one or more ids: a string or a list of strings, each checked by `known`. */
function ids(value: unknown, field: string, where: string, known?: readonly string[]): string[] | undefined {
  if (value === undefined) return undefined;
  const list = typeof value === 'string' ? [value] : Array.isArray(value) ? value : undefined;
  if (!list || list.length === 0 || list.some((x) => typeof x !== 'string' || !NAME.test(x))) {
    throw new UsageError(`${where}: '${field}' must be a name or a list of names (lower-case letters, digits, '-'). ${FIX}`);
  }
  const unknown = known && list.find((x) => !known.includes(x));
  if (unknown) throw new UsageError(`${where}: unknown ${field} '${unknown}'; choose from ${known!.join(', ')}. ${FIX}`);
  return list as string[];
}

function entry(raw: unknown, framework: string, where: string): TriageEntry {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new UsageError(`${where}: an entry must be a mapping of ${KEYS.join(', ')}. ${FIX}`);
  const fields = raw as Record<string, unknown>;
  const extra = Object.keys(fields).find((k) => !(KEYS as readonly string[]).includes(k));
  if (extra) throw new UsageError(`${where}: unknown key '${extra}'; an entry has ${KEYS.join(', ')}. ${FIX}`);
  const { link, note, versions } = fields;
  let url: URL | undefined;
  try {
    url = typeof link === 'string' ? new URL(link) : undefined;
  } catch {
    url = undefined;
  }
  if (!url || url.protocol !== 'https:' || /[\s<>"'`]/.test(link as string)) {
    throw new UsageError(`${where}: 'link' must be an https URL, got ${JSON.stringify(link ?? null)}. ${FIX}`);
  }
  if (typeof note !== 'string' || note.trim() === '' || /[\n\r]/.test(note.trim()) || note.length > 400) {
    throw new UsageError(`${where}: 'note' must be one line of at most 400 characters saying what the linked page says. ${FIX}`);
  }
  if (versions !== undefined && (typeof versions !== 'string' || semver.validRange(versions) === null)) {
    throw new UsageError(`${where}: 'versions' must be a semver range such as ">=1.0.0 <1.61.0", got ${JSON.stringify(versions)}. ${FIX}`);
  }
  const wiring = ids(fields['wiring'], 'wiring', where);
  const store = ids(fields['store'], 'store', where);
  const scenario = ids(fields['scenario'], 'scenario', where, [...SCENARIOS.keys()]);
  const property = ids(fields['property'], 'property', where, PROPERTY_IDS);
  return {
    framework,
    where,
    link: url.href,
    note: note.trim(),
    ...(versions === undefined ? {} : { versions: versions as string }),
    ...(wiring ? { wiring } : {}),
    ...(store ? { store } : {}),
    ...(scenario ? { scenario } : {}),
    ...(property ? { property } : {}),
  };
}

/** Every entry in `dir` (`<framework>.yml`), checked; none when the folder does not exist. */
export async function readTriage(dir: string, shownAs = dir): Promise<TriageEntry[]> {
  let names: string[];
  try {
    names = (await readdir(dir)).filter((n) => n.endsWith('.yml') || n.endsWith('.yaml')).sort();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw new UsageError(`cannot read the triage metadata in ${shownAs}: ${(error as Error).message}.`);
  }
  const entries: TriageEntry[] = [];
  for (const name of names) {
    const framework = name.replace(/\.ya?ml$/, '');
    const file = `${shownAs}/${name}`;
    if (!NAME.test(framework)) throw new UsageError(`${file}: a metadata file is named after its framework (reference.yml). Rename it.`);
    let doc: unknown;
    try {
      doc = parse(await readFile(join(dir, name), 'utf8'));
    } catch (error) {
      throw new UsageError(`${file} is not valid YAML (${(error as Error).message.split('\n')[0]}). Fix the file.`);
    }
    if (doc === null || doc === undefined) continue;
    if (!Array.isArray(doc)) throw new UsageError(`${file}: the file must be a list of entries (each starting with '- '). Fix the file.`);
    doc.forEach((raw, i) => entries.push(entry(raw, framework, `${file}, entry ${i + 1}`)));
  }
  return entries;
}

const within = (list: readonly string[] | undefined, value: string) => list === undefined || list.includes(value);

/** Whether `entry` speaks of `cell`: every field it gives matches. */
export function matches(entry: TriageEntry, cell: Pick<ResultCell, 'framework' | 'version' | 'wiring' | 'store' | 'scenario' | 'property'>): boolean {
  return (
    entry.framework === cell.framework &&
    (entry.versions === undefined || (semver.valid(cell.version) !== null && semver.satisfies(cell.version, entry.versions, { includePrerelease: true }))) &&
    within(entry.wiring, cell.wiring) &&
    within(entry.store, cell.store) &&
    within(entry.scenario, cell.scenario) &&
    within(entry.property, cell.property)
  );
}

const explains = (cell: ResultCell) => cell.verdict === 'fail' || cell.verdict === 'allowed';

/** A cell with no verdict (its unit crashed or ran out of time): it may yet fail. */
const unjudged = (cell: ResultCell) => cell.verdict === 'error' || cell.verdict === 'timeout';

/** The entries that explain a failing cell; none for a cell that did not fail. */
export const triageOf = (cell: ResultCell, entries: readonly TriageEntry[]) =>
  explains(cell) ? entries.filter((e) => matches(e, cell)) : [];

/** What a run was and whether it ended: an unfinished run judges no entry that a wiring it has not run yet may match. */
export interface RunShape {
  readonly options?: RunOptions;
  readonly complete?: boolean;
  /** The versions that ran, with the wirings each has (`ResultTarget.wirings`). */
  readonly targets?: readonly ResultTarget[];
}

/**
 * Whether these results ran what `entry` speaks of, where they ran only part of it: a version its range takes (of the
 * versions they ran), and, for each list a filter of the run narrowed (`--scenario`, `--wiring`, `--store`,
 * `--property`), one of the entry's names. An entry about cells a run left out is not judged by it: a three-tabs
 * report says nothing of the tamper scenario's entries. The default matrix narrows no list, so an entry naming a
 * wiring that does not exist is still judged there (it matches no cell). A run that did not finish does not judge an
 * entry that may speak of a wiring it has no cell of yet (of those its `--wiring` named, or any).
 */
function ranWhat(entry: TriageEntry, cells: readonly ResultCell[], run: RunShape): boolean {
  const mine = cells.filter((c) => c.framework === entry.framework);
  const versions = [...new Set(mine.map((c) => c.version))];
  if (entry.versions !== undefined && !versions.some((v) => semver.valid(v) !== null && semver.satisfies(v, entry.versions!, { includePrerelease: true }))) return false;
  const { options } = run;
  if (run.complete !== true) {
    const ran = new Set(mine.map((c) => c.wiring));
    const wirings = (run.targets ?? []).filter((t) => t.framework === entry.framework).flatMap((t) => t.wirings ?? []).map((w) => w.id);
    const notYet = wirings.filter((w) => !ran.has(w) && within(options?.wirings, w));
    if (notYet.some((w) => within(entry.wiring, w))) return false;
  }
  if (!options) return true;
  const meets = (named: readonly string[] | undefined, ran: readonly string[] | undefined) => named === undefined || ran === undefined || named.some((n) => ran.includes(n));
  return meets(entry.scenario, options.scenarios) && meets(entry.wiring, options.wirings) && meets(entry.store, options.stores) && meets(entry.property, options.properties);
}

/**
 * Entries of the frameworks these results ran that match no failing cell: stale (the gap was fixed, or the entry
 * names something that does not exist). Frameworks the results do not cover are not judged, nor entries about what
 * the run left out, or has not run yet (`ranWhat`; given what the run was), nor an entry that matches a cell with no
 * verdict (`error`, `timeout`), which may yet fail.
 */
export function staleTriage(entries: readonly TriageEntry[], cells: readonly ResultCell[], run: RunShape = { complete: true }): { entry: TriageEntry; why: string }[] {
  const ran = new Set(cells.map((c) => c.framework));
  return entries
    .filter((e) => ran.has(e.framework) && ranWhat(e, cells, run) && !cells.some((c) => (explains(c) || unjudged(c)) && matches(e, c)))
    .map((entry) => {
      const passing = cells.filter((c) => matches(entry, c)).length;
      return { entry, why: passing > 0 ? `it matches ${passing} cell${passing === 1 ? '' : 's'}, none failing` : 'it matches no cell' };
    });
}

/**
 * The triage metadata for reports written into `outDir`: the folder `--metadata` names (it must exist), or else
 * `outDir/metadata` when there is one. Read and checked before a run starts, so bad metadata never costs a run.
 */
export async function triageForReports(outDir: string, asked?: string): Promise<TriageEntry[]> {
  let entries: TriageEntry[];
  if (asked !== undefined) {
    const dir = resolve(asked);
    if (!existsSync(dir)) throw new UsageError(`--metadata ${asked}: no such folder. Give the folder that holds <framework>.yml files, or leave --metadata out.`);
    entries = await readTriage(dir, asked);
  } else {
    const dir = join(outDir, 'metadata');
    const below = relative(process.cwd(), dir);
    entries = await readTriage(dir, below && !below.startsWith('..') ? below : dir);
  }
  // A file named after no framework (a-i.yml) would explain nothing, silently.
  const names = frameworkNames();
  const unknown = entries.find((e) => !names.includes(e.framework));
  if (unknown) {
    const file = unknown.where.replace(/, entry \d+$/, '');
    const near = names.find((name) => name.startsWith(unknown.framework) || unknown.framework.startsWith(name));
    throw new UsageError(`${file} is named after '${unknown.framework}', which is no framework the suite knows${near ? ` (did you mean ${near}.yml?)` : ''}. Frameworks: ${names.join(', ')}. Rename or remove it (or, for a framework of an adapter's own, give --adapter).`);
  }
  return entries;
}

/** One warning line per stale entry, for stderr. */
export const staleWarnings = (entries: readonly TriageEntry[], cells: readonly ResultCell[], run?: RunShape) =>
  staleTriage(entries, cells, run).map((s) => `approval-conformance: stale triage entry ${s.entry.where}: ${s.why}. Update or remove it (${s.entry.link}).`);
