import { describe, expect, it } from 'vitest';
import { CONTRACT_VERSION } from '@approval-conformance/core';
import { defaultScope, expandSpec, framework, frameworkNames, matrixFrameworkNames, parseFrameworkSpec, type Framework } from './frameworks.js';
import { UsageError } from './usage-error.js';

const shape = { wirings: ['plain', 'guarded-plain'], stores: ['memory', 'file', 'file-shared'] };
const versions = ['1.0.0', '1.10.0', '1.2.0'];
const fw = (newestOnly?: Framework['newestOnly']) =>
  ({ contractVersion: CONTRACT_VERSION, name: 'x', pinned: [], oldest: '1.0.0', defaults: () => versions, shape: async () => shape, load: async () => { throw new Error('unused'); }, ...(newestOnly ? { newestOnly } : {}) }) as Framework;

describe('defaultScope', () => {
  it('leaves the guarded wirings and the named stores to the newest default version', () => {
    const it = fw({ guarded: true, stores: ['file'] });
    expect(defaultScope(it, '1.2.0', versions, shape, {})).toEqual({ wirings: ['plain'], stores: ['memory', 'file-shared'] });
    expect(defaultScope(it, '1.10.0', versions, shape, {})).toBeUndefined();
  });

  it('leaves the scenarios that say newestOnly (two-approvals) to the newest, unless the user named the scenarios', () => {
    const running = ['double-resume', 'two-approvals'] as const;
    expect(defaultScope(fw(), '1.2.0', versions, shape, {}, running)).toEqual({ scenarios: ['double-resume'] });
    expect(defaultScope(fw(), '1.10.0', versions, shape, {}, running)).toBeUndefined();
    // A run that named its scenarios passes none (`running` undefined): what it names runs on every version.
    expect(defaultScope(fw(), '1.2.0', versions, shape, {})).toBeUndefined();
    expect(defaultScope(fw({ guarded: true }), '1.2.0', versions, shape, {}, running)).toEqual({ wirings: ['plain'], scenarios: ['double-resume'] });
  });

  it('takes the newest of each release line as a newest, for a framework with several lines', () => {
    const lines = ['1.0.0', '1.10.0', '2.0.0', '2.1.0'];
    const running = ['double-resume', 'two-approvals'] as const;
    const it = { ...fw({ guarded: true }), line: (v: string) => v.split('.')[0]! } as Framework;
    expect(defaultScope(it, '1.10.0', lines, shape, {}, running)).toBeUndefined();
    expect(defaultScope(it, '2.1.0', lines, shape, {}, running)).toBeUndefined();
    expect(defaultScope(it, '2.0.0', lines, shape, {}, running)).toEqual({ wirings: ['plain'], scenarios: ['double-resume'] });
    expect(defaultScope(fw({ guarded: true }), '1.10.0', lines, shape, {}, running)).toEqual({ wirings: ['plain'], scenarios: ['double-resume'] });
  });

  it('narrows nothing for a framework that keeps nothing for the newest', () => {
    expect(defaultScope(fw(), '1.0.0', versions, shape, {})).toBeUndefined();
  });

  it('runs only the default wirings of a framework that names them, on every default version', () => {
    const it = { ...fw({ guarded: true }), defaultWirings: ['plain', 'guarded-plain'] } as Framework;
    expect(defaultScope({ ...fw(), defaultWirings: ['plain'] } as Framework, '1.10.0', versions, shape, {})).toEqual({ wirings: ['plain'] });
    expect(defaultScope(it, '1.2.0', versions, shape, {})).toEqual({ wirings: ['plain'] });
    expect(defaultScope(it, '1.10.0', versions, shape, {})).toEqual({ wirings: ['plain', 'guarded-plain'] });
    expect(defaultScope(it, '1.10.0', versions, shape, { wirings: ['guarded-plain'] })).toBeUndefined();
  });

  it('lets a filter the user gave run what it names on every version', () => {
    const it = fw({ guarded: true, stores: ['file'] });
    expect(defaultScope(it, '1.0.0', versions, shape, { wirings: ['guarded-plain'] })).toEqual({ stores: ['memory', 'file-shared'] });
    expect(defaultScope(it, '1.0.0', versions, shape, { wirings: ['guarded-plain'], stores: ['file'] })).toBeUndefined();
  });
});

describe('default versions', () => {
  it("runs LangGraph's first and latest lines and both sides of each change, and a newer line as it comes", () => {
    const releases = ['0.1.9', '0.2.0', '0.2.74', '0.3.12', '0.4.0', '0.4.10', '1.0.15', '1.4.21', '1.5.3', '1.6.0', '1.7.3', '1.8.0-rc.1'];
    expect(framework('langgraph').defaults(releases)).toEqual(['0.2.74', '0.3.12', '0.4.10', '1.5.3', '1.7.3']);
    expect(framework('langgraph').defaults([...releases, '1.8.1'])).toEqual(['0.2.74', '0.3.12', '0.4.10', '1.5.3', '1.7.3', '1.8.1']);
  });

  it("runs ADK's first release, both sides of its change, and a newer one as it comes", () => {
    const releases = ['0.1.2', '0.1.3', '0.4.0', '1.6.0', '2.0.0'];
    expect(framework('adk').defaults(releases)).toEqual(['0.1.2', '1.6.0', '2.0.0']);
    expect(framework('adk').defaults([...releases, '2.1.0-rc.1', '2.1.0'])).toEqual(['0.1.2', '1.6.0', '2.0.0', '2.1.0']);
  });

  it("runs the LangGraph server's release on the latest tag, with its cheaper wirings", () => {
    expect(framework('langgraph-server').defaults(['0.0.64', '1.5.0', '1.5.1'])).toEqual(['1.5.1']);
    expect(framework('langgraph-server').defaultWirings).toEqual(['reject', 'reject-by-id', 'enqueue', 'guarded-reject']);
  });
});

describe('frameworks outside the default matrix', () => {
  it('lists cloudflare-agents among the frameworks, but not in the default matrix', () => {
    expect(frameworkNames()).toContain('cloudflare-agents');
    expect(matrixFrameworkNames()).not.toContain('cloudflare-agents');
    expect(matrixFrameworkNames()).toEqual(frameworkNames().filter((name) => name !== 'cloudflare-agents'));
  });

  it("runs cloudflare-agents' pinned version from the workspace, and by default the last release of each minor line from the first with approvals", async () => {
    const fw = framework('cloudflare-agents');
    expect(fw.oldest).toBe('0.0.6');
    expect(await expandSpec(parseFrameworkSpec('cloudflare-agents@0.12.2'))).toEqual(['0.12.2']);
    // @cloudflare/ai-chat's releases on the registry (2026-12-04).
    const releases = ['0.0.3', '0.0.4', '0.0.5', '0.0.6', '0.0.7', '0.0.8', '0.1.2', '0.1.3', '0.1.9', '0.2.6', '0.4.6', '0.9.4', '0.10.0', '0.10.2', '0.12.0', '0.12.2', '0.13.0-rc.1'];
    expect(fw.defaults(releases)).toEqual(['0.0.8', '0.1.9', '0.2.6', '0.4.6', '0.9.4', '0.10.2', '0.12.2']);
  });
});
