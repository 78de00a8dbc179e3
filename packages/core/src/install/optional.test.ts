// Only "the package itself is not installed" means "not here": a package that is there but fails inside must still
// be an error, or a broken pin would silently turn into an on-demand install.
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { isMissingPackage, optionalPackage } from './optional.js';

const missing = (name: string) =>
  Object.assign(new Error(`Cannot find package '${name}' imported from /somewhere/lib.js`), { code: 'ERR_MODULE_NOT_FOUND' });

describe('optionalPackage', () => {
  it('is undefined when the package itself is not installed', async () => {
    await expect(optionalPackage('@x/pin', () => Promise.reject(missing('@x/pin')))).resolves.toBeUndefined();
  });

  it('is the module when it loads', async () => {
    await expect(optionalPackage('@x/pin', async () => ({ version: '1.0.0' }))).resolves.toEqual({ version: '1.0.0' });
  });

  it('throws when the package is there but something it imports is missing, or it throws', async () => {
    await expect(optionalPackage('@x/pin', () => Promise.reject(missing('ai')))).rejects.toThrow("Cannot find package 'ai'");
    await expect(optionalPackage('@x/pin', () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
  });

  it("recognises the error Node itself gives for a package that is not installed (import and require)", () => {
    const script = `
      const name = '@approval-conformance/not-installed-anywhere';
      const viaImport = await import(name).catch((e) => e);
      let viaRequire;
      try { (await import('node:module')).createRequire(import.meta.url)(name); } catch (e) { viaRequire = e; }
      console.log(JSON.stringify([viaImport, viaRequire].map((e) => ({ code: e.code, message: e.message }))));
    `;
    const result = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
    const errors = JSON.parse(result.stdout) as { code: string; message: string }[];
    expect(errors).toHaveLength(2);
    for (const error of errors) expect(isMissingPackage(error, '@approval-conformance/not-installed-anywhere')).toBe(true);
    expect(isMissingPackage(errors[0], '@approval-conformance/not-installed')).toBe(false);
  });
});
