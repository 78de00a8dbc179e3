import { describe, expect, it } from 'vitest';
import { installedLib, neededPeers } from './install.js';

describe('installedLib', () => {
  it('refuses what is not a version, and what is older than the first release, before asking the registry', async () => {
    await expect(installedLib('two')).rejects.toThrow(/'two' is not a version/);
    await expect(installedLib('0.1.1')).rejects.toThrow(/older than 0\.1\.2/);
  });
});

describe('the peers installed beside a version', () => {
  const knex = async () => ['6.6.15', '6.6.16', '7.0.0'];

  it("lists a release's required peers as it names them (0.1.2)", async () => {
    const peers = { '@google/genai': '1.14.0', '@opentelemetry/api': '1.9.0', zod: '3.25.76' };
    expect(await neededPeers({ peerDependencies: peers }, () => Promise.reject(new Error('not asked')))).toEqual(peers);
  });

  it('pins every required database driver, and the core, to the newest MikroORM 6 the registry has a knex for (0.4 to 1.6)', async () => {
    const manifest = {
      peerDependencies: { '@google-cloud/storage': '^7.17.1', '@mikro-orm/postgresql': '^6.6.6', '@mikro-orm/sqlite': '^6.6.6' },
    };
    expect(await neededPeers(manifest, knex)).toEqual({
      '@google-cloud/storage': '^7.17.1',
      '@mikro-orm/core': '6.6.16',
      '@mikro-orm/postgresql': '6.6.16',
      '@mikro-orm/sqlite': '6.6.16',
    });
  });

  it('installs only the PostgreSQL driver where the drivers are optional, and no other optional peer (2.0)', async () => {
    const optional = { optional: true };
    const manifest = {
      peerDependencies: { '@mikro-orm/postgresql': '^6.6.6', '@mikro-orm/sqlite': '^6.6.6', express: '^5.1.0' },
      peerDependenciesMeta: { '@mikro-orm/postgresql': optional, '@mikro-orm/sqlite': optional, express: optional },
    };
    expect(await neededPeers(manifest, knex)).toEqual({ '@mikro-orm/core': '6.6.16', '@mikro-orm/postgresql': '6.6.16' });
  });
});
