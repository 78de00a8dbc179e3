// Mastra as the runner knows it: @mastra/core from 0.18.0, two versions pinned in the workspace, any other installed
// on demand, or a maintainer's local build (`mastra@file:PATH`).
import { CONTRACT_VERSION, loadedPackages, notPinnedHere, type FrameworkDescriptor } from '@approval-conformance/core/kit';
import { mastraRepro } from './repro/index.js';

const PACKAGES = ['@mastra/core', '@mastra/libsql', '@libsql/client', 'zod'];

export const descriptor: FrameworkDescriptor = {
  contractVersion: CONTRACT_VERSION,
  name: 'mastra',
  npm: '@mastra/core',
  pinned: ['1.71.0', '1.0.4'],
  oldest: '0.18.0',
  // The first version with tool approvals, the latest, and every release where a verdict changes, found with bisect
  // (the README says how; 70-odd minor lines would not fit the matrix's 10 minutes): 0.18.0 (the workflow rows; its
  // agent approves only on a stream, n/a), 1.0.4 (the first with approveToolCallGenerate), 1.51.0 (checks the tool
  // call id an approval names: before it, a stale approval of a1 approved the follow-up call a1.2; and a workflow
  // resume no longer marks the run running before the step, so a retry after a crash runs it again) and 1.61.0
  // (claims a workflow run before it resumes it: before it, two resumes both ran the step).
  defaults: (releases) => ['0.18.0', '1.0.4', '1.51.0', '1.61.0', '1.71.0'].filter((v) => releases.includes(v)),
  // The guarded wirings gave the same verdicts on all five default versions, and `libsql` (one process) the same as
  // `libsql-shared` (two) in every cell (reports/ at c1220e5): on the older versions the matrix runs neither.
  newestOnly: { guarded: true, stores: ['libsql'] },
  async shape() {
    const { WIRINGS, STORES } = await import('./index.js');
    return { wirings: WIRINGS.map((w) => w.id), stores: [...STORES] };
  },
  localName: '@mastra/core',
  async load(version, log, source) {
    const m = await import('./index.js');
    const line = source === undefined ? m.PINNED_VERSIONS[version] : undefined;
    const pinned = line === undefined ? undefined : await m.pinnedLibIfPresent(line);
    if (line !== undefined && pinned === undefined) log(notPinnedHere('mastra', version));
    const lib = pinned ?? (source !== undefined ? await m.localLib(source, log) : await m.installedLib(version, log));
    return { adapter: await m.mastraAdapter(lib), ...loadedPackages(lib.dir, PACKAGES) };
  },
  repro: mastraRepro,
  // Mastra's accesses are declared one by one where its code re-reads (its LibSQL clients, hooks and re-reads): the
  // declarations an audit most needs to check against the unreduced exploration.
  auditWeight: 2,
};
