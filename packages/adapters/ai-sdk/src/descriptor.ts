// The AI SDK as the runner knows it: `ai` from 5.0.0, three versions pinned in the workspace, any other installed on
// demand, or a maintainer's local build (`ai@file:PATH`).
import semver from 'semver';
import { CONTRACT_VERSION, loadedPackages, notPinnedHere, stable, type FrameworkDescriptor } from '@approval-conformance/core/kit';
import { aiRepro } from './repro/index.js';

const PACKAGES = ['ai', '@ai-sdk/provider', '@ai-sdk/provider-utils', 'zod'];

export const descriptor: FrameworkDescriptor = {
  contractVersion: CONTRACT_VERSION,
  name: 'ai',
  npm: 'ai',
  pinned: ['7.0.185', '6.0.326', '5.0.277'],
  oldest: '5.0.0',
  // The last 5.x, and for every later major its first release and its last.
  defaults(releases) {
    const all = stable(releases).filter((v) => semver.gte(v, '5.0.0'));
    const majors = [...new Set(all.map((v) => semver.major(v)))];
    return majors.flatMap((major) => {
      const line = all.filter((v) => semver.major(v) === major);
      const first = line[0]!;
      const last = line[line.length - 1]!;
      return major === 5 || first === last ? [last] : [first, last];
    });
  },
  async shape() {
    const { WIRINGS } = await import('./index.js');
    return { wirings: WIRINGS.map((w) => w.id), stores: ['memory', 'sqlite'] };
  },
  localName: 'ai',
  async load(version, log, source) {
    const sdk = await import('./index.js');
    const line = source === undefined ? sdk.PINNED_VERSIONS[version] : undefined;
    const pinned = line === undefined ? undefined : await sdk.pinnedLibIfPresent(line);
    if (line !== undefined && pinned === undefined) log(notPinnedHere('ai', version));
    const lib = pinned ?? (source !== undefined ? await sdk.localLib(source, log) : await sdk.installedLib(version, log));
    return { adapter: await sdk.aiSdkAdapter(lib), ...loadedPackages(lib.dir, PACKAGES) };
  },
  repro: aiRepro,
};
