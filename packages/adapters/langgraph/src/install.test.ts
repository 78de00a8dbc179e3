import { describe, expect, it } from 'vitest';
import { installedLib, pickSqliteSaver } from './install.js';

// Peer ranges as published (npm view @langchain/langgraph-checkpoint-sqlite@'>=0.0.0' peerDependencies).
const SAVERS = {
  '0.0.1': { peerDependencies: { '@langchain/core': '>=0.2.20 <0.3.0' } },
  '0.1.4': { peerDependencies: { '@langchain/langgraph-checkpoint': '~0.0.15' } },
  '0.1.5': { peerDependencies: { '@langchain/langgraph-checkpoint': '~0.0.15' } },
  '0.2.2': { peerDependencies: { '@langchain/langgraph-checkpoint': '^0.1.0' } },
  '1.0.4': { peerDependencies: { '@langchain/langgraph-checkpoint': '^1.1.4' } },
  '1.1.0-rc.1': { peerDependencies: { '@langchain/langgraph-checkpoint': '^1.1.4' } },
};

describe('pickSqliteSaver', () => {
  it.each([
    ['0.0.18', '0.1.5'], // langgraph 0.2.x
    ['0.1.3', '0.2.2'], // langgraph 0.4.x
    ['1.2.2', '1.0.4'], // langgraph 1.x; never a prerelease
    ['2.0.0', undefined], // nothing fits yet
  ])('picks the newest saver whose checkpoint peer admits %s: %s', (checkpoint, saver) => {
    expect(pickSqliteSaver(checkpoint, SAVERS)).toBe(saver);
  });
});

describe('installedLib', () => {
  it('refuses what is not a version before asking the registry', async () => {
    await expect(installedLib('latest-ish')).rejects.toThrow(/'latest-ish' is not a version/);
  });
});
