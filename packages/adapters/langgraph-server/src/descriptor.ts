// The LangGraph server as the runner knows it: @langchain/langgraph-api from 0.0.64, the first that starts in-process,
// one version pinned in the workspace and any other installed on demand.
import semver from 'semver';
import { CONTRACT_VERSION, loadedPackages, notPinnedHere, npmView, type FrameworkDescriptor } from '@approval-conformance/core/kit';
import { langgraphServerRepro } from './repro/index.js';

const PACKAGES = ['@langchain/langgraph-api', '@langchain/langgraph-sdk', '@langchain/langgraph', '@langchain/langgraph-checkpoint', '@langchain/core'];

export const descriptor: FrameworkDescriptor = {
  contractVersion: CONTRACT_VERSION,
  name: 'langgraph-server',
  npm: '@langchain/langgraph-api',
  pinned: ['1.5.1'],
  // The first release that starts in-process (`@langchain/langgraph-api/server`); both multitask_strategy and
  // command.resume are older.
  oldest: '0.0.64',
  // Releases up to the registry's latest tag: 2.0.0 is published above it, and deprecated.
  async listReleases() {
    const [versions, tags] = await Promise.all([
      npmView<string[] | string>('@langchain/langgraph-api', ['versions']),
      npmView<Record<string, string>>('@langchain/langgraph-api', ['dist-tags']),
    ]).catch(() => [undefined, undefined] as const);
    const latest = tags?.['latest'];
    if (versions === undefined || latest === undefined) return [...this.pinned];
    return (Array.isArray(versions) ? versions : [versions]).filter((v) => semver.valid(v) && semver.lte(v, latest));
  },
  // The newest release on the registry's latest tag: 0.0.64, the first that starts in-process, gives the same
  // verdicts on every cell of the default wirings but overlapping-turns (compared when the row was added).
  defaults: (releases) => ['1.5.1'].filter((v) => releases.includes(v)),
  // The docs' default (reject) both ways, the Agent Server's documented default (enqueue) and the guarded one: the
  // interrupt and rollback strategies cancel a running run, which orders every release with the cancel, and their
  // overlapping-turns and double-resume cells run for minutes each (README, "The matrix").
  defaultWirings: ['reject', 'reject-by-id', 'enqueue', 'guarded-reject'],
  async shape() {
    const { WIRINGS, STORES } = await import('./index.js');
    return { wirings: WIRINGS.map((w) => w.id), stores: [...STORES] };
  },
  async load(version, log) {
    const lgs = await import('./index.js');
    const pinned = lgs.PINNED_VERSIONS.includes(version) ? await lgs.pinnedLibIfPresent() : undefined;
    if (lgs.PINNED_VERSIONS.includes(version) && pinned === undefined) log(notPinnedHere('langgraph-server', version));
    const lib = pinned ?? (await lgs.installedLib(version, log));
    return { adapter: await lgs.langgraphServerAdapter(lib), ...loadedPackages(lib.dir, PACKAGES) };
  },
  repro: langgraphServerRepro,
};
