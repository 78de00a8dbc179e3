// LangGraph.js as the runner knows it: @langchain/langgraph from 0.2.0, two versions pinned in the workspace, any
// other installed on demand, or a maintainer's local build (`langgraph@file:PATH`).
import semver from 'semver';
import { CONTRACT_VERSION, lastOfEachMinor, loadedPackages, notPinnedHere, stable, type FrameworkDescriptor } from '@approval-conformance/core/kit';
import { langgraphRepro } from './repro/index.js';

export { INTERRUPT_NODE } from './repro/index.js';

const PACKAGES = [
  '@langchain/langgraph',
  '@langchain/core',
  '@langchain/langgraph-checkpoint',
  '@langchain/langgraph-checkpoint-sqlite',
  '@langchain/langgraph-checkpoint-postgres',
];

export const descriptor: FrameworkDescriptor = {
  contractVersion: CONTRACT_VERSION,
  name: 'langgraph',
  npm: '@langchain/langgraph',
  pinned: ['1.7.3', '0.2.74'],
  oldest: '0.2.0',
  // The first and the latest minor lines' last releases, and both sides of every place a verdict changes: 0.3.12 and
  // 0.4.10 (interrupts get ids: resume-by-id runs from 0.4), 1.5.3 and 1.7.3 (strict resume, 1.7). The last release
  // of every minor line since 0.2 (ten versions) no longer fit the matrix's 10 minutes with the LangGraph server's row;
  // the five left out (1.0.15, 1.1.5, 1.2.9, 1.3.7, 1.4.21) gave the same verdict and the same shortest length as
  // 0.4.10 and 1.5.3 in every cell (reports/ at a66d0be). `langgraph@^1.2` runs the last of each minor line in a range.
  defaults: (releases) => {
    const last = lastOfEachMinor(stable(releases).filter((v) => semver.gte(v, '0.2.0')));
    const lineOf = (v: string) => `${semver.major(v)}.${semver.minor(v)}`;
    const keep = new Set(['0.2', '0.3', '0.4', '1.5', '1.7']);
    const newest = last.at(-1);
    return last.filter((v) => keep.has(lineOf(v)) || v === newest);
  },
  // The guarded wirings gave the same verdicts on all ten default versions (reports/ at c1220e5).
  newestOnly: { guarded: true },
  async shape() {
    const { WIRINGS } = await import('./index.js');
    return { wirings: WIRINGS.map((w) => w.id), stores: ['memory', 'sqlite', 'postgres'] };
  },
  localName: '@langchain/langgraph',
  async load(version, log, source) {
    const lg = await import('./index.js');
    const line = source === undefined ? lg.PINNED_VERSIONS[version] : undefined;
    const pinned = line === undefined ? undefined : await lg.pinnedLibIfPresent(line);
    if (line !== undefined && pinned === undefined) log(notPinnedHere('langgraph', version));
    const lib = pinned ?? (await lg.installedLib(version, log, source));
    return { adapter: await lg.langgraphAdapter(lib), ...loadedPackages(lib.dir, PACKAGES) };
  },
  repro: langgraphRepro,
};
