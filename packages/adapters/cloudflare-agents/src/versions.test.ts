// Choosing a version's partners and reading what its code has, offline: the registry's answers are fixtures (taken
// from `npm view` on 2026-12-04), and the installed trees small folders written here.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { chunkBuilder, compatModule, features, lacking, signedLacking } from './compat.js';
import { WORKER_DIR } from './bundle.js';
import { choosePartners, exportedNames, floorAbove, namedImports, type Release } from './versions.js';

// agents releases as the registry lists them (versions and the peers that matter here).
const AGENTS: Release[] = [
  { version: '0.3.9', peerDependencies: { ai: '^6.0.0' } },
  { version: '0.3.10', peerDependencies: { ai: '^6.0.0' } },
  { version: '0.5.0', peerDependencies: { ai: '^6.0.0' } },
  { version: '0.5.1', peerDependencies: { ai: '^6.0.0', '@cloudflare/ai-chat': '^0.1.3' } },
  { version: '0.11.7', peerDependencies: { ai: '^6.0.0', '@cloudflare/ai-chat': '>=0.0.8 <1.0.0' } },
  { version: '0.12.0', peerDependencies: { ai: '^6.0.0', '@cloudflare/ai-chat': '>=0.5.2 <1.0.0' } },
  { version: '0.17.1', peerDependencies: { ai: '^6.0.0' } },
  { version: '0.19.0', peerDependencies: { ai: '^6.0.0 || ^7.0.0' } },
  { version: '0.22.0', peerDependencies: { ai: '^6.0.0 || ^7.0.0' } },
  { version: '0.24.0', peerDependencies: { ai: '^6.0.0 || ^7.0.0' } },
  { version: '0.32.0', peerDependencies: { ai: '^6.0.0 || ^7.0.0' } },
  { version: '0.33.0-beta.1', peerDependencies: { ai: '^6.0.0 || ^7.0.0' } },
];
const AI = ['6.0.0', '6.0.333', '7.0.0', '7.0.173', '8.0.0-beta.2'];
const aiChat = (version: string, agents: string, ai: string): Release => ({ version, peerDependencies: { agents, ai } });

describe('choosePartners', () => {
  it('takes the newest ai and agents the peers admit, both ways (strict peers), stable only', async () => {
    expect(await choosePartners(aiChat('0.0.6', '^0.3.10', '^6.0.0'), AGENTS, AI)).toEqual({ agents: '0.3.10', ai: '6.0.333' });
    // agents 0.5.1 wants ai-chat ^0.1.3: npm fails ERESOLVE on it with 0.1.2.
    expect(await choosePartners(aiChat('0.1.2', '^0.5.0', '^6.0.0'), AGENTS, AI)).toEqual({ agents: '0.5.0', ai: '6.0.333' });
    expect(await choosePartners(aiChat('0.12.2', '>=0.25.0 <1.0.0', '^6.0.0 || ^7.0.0'), AGENTS, AI)).toEqual({ agents: '0.32.0', ai: '7.0.173' });
    // 0.4.6 admits agents >=0.8.7 <1: 0.12.0 wants ai-chat >=0.5.2 and is passed over, 0.11.7 takes it back.
    const tried: string[] = [];
    const upTo = (v: string) => (tried.push(v), v === '0.11.7');
    expect(await choosePartners(aiChat('0.4.6', '>=0.8.7 <1.0.0', '^6.0.0'), AGENTS, AI, upTo)).toEqual({ agents: '0.11.7', ai: '6.0.333' });
    expect(tried).toEqual(['0.32.0', '0.24.0', '0.22.0', '0.19.0', '0.17.1', '0.11.7']);
  });

  it('skips an agents that does not export what ai-chat imports, newest first, and says which it checked when none does', async () => {
    const checked: string[] = [];
    const covers = (v: string) => (checked.push(v), v === '0.22.0');
    expect(await choosePartners(aiChat('0.10.2', '>=0.17.1 <1.0.0', '^6.0.0 || ^7.0.0'), AGENTS, AI, covers)).toEqual({ agents: '0.22.0', ai: '7.0.173' });
    expect(checked).toEqual(['0.32.0', '0.24.0', '0.22.0']);
    await expect(choosePartners(aiChat('0.10.2', '>=0.17.1 <1.0.0', '^7.0.0'), AGENTS, AI, () => false)).rejects.toThrow(
      "no published agents in @cloudflare/ai-chat@0.10.2's peer range (>=0.17.1 <1.0.0) exports everything it imports from agents (checked 0.32.0, 0.24.0, 0.22.0, 0.19.0); name another version",
    );
  });

  it('keeps the partner below the agents floor a later ai-chat had to raise to', async () => {
    // ai-chat releases' agents ranges, as the registry lists them.
    const releases = [
      aiChat('0.4.6', '>=0.8.7 <1.0.0', '^6.0.0'),
      aiChat('0.6.2', '>=0.12.1 <1.0.0', '^6.0.0'),
      aiChat('0.9.4', '>=0.17.1 <1.0.0', '^6.0.0'),
      aiChat('0.10.2', '>=0.17.1 <1.0.0', '^6.0.0 || ^7.0.0'),
      aiChat('0.12.0', '>=0.23.0 <1.0.0', '^6.0.0 || ^7.0.0'),
      aiChat('0.12.2', '>=0.25.0 <1.0.0', '^6.0.0 || ^7.0.0'),
    ];
    const later = (v: string) => releases.filter((r) => r.version !== v);
    expect(floorAbove(releases[0]!, later('0.4.6'))).toBe('0.12.1');
    // 0.10.x keeps 0.9.4's floor: the next raise is 0.12.0's.
    expect(floorAbove(releases[2]!, later('0.9.4'))).toBe('0.23.0');
    expect(floorAbove(releases[5]!, later('0.12.2'))).toBeUndefined();
    expect(await choosePartners(releases[0]!, AGENTS, AI, () => true, '0.12.1')).toEqual({ agents: '0.11.7', ai: '6.0.333' });
    expect(await choosePartners(releases[3]!, AGENTS, AI, () => true, '0.23.0')).toEqual({ agents: '0.22.0', ai: '7.0.173' });
    expect(await choosePartners(releases[5]!, AGENTS, AI, () => true, undefined)).toEqual({ agents: '0.32.0', ai: '7.0.173' });
  });

  it('refuses a release that names no agents or ai peer, and one no agents fits', async () => {
    await expect(choosePartners({ version: '0.0.3' }, AGENTS, AI)).rejects.toThrow('names no agents and ai peers');
    await expect(choosePartners(aiChat('0.0.6', '^0.4.0', '^6.0.0'), AGENTS, AI)).rejects.toThrow(
      'no published agents fits @cloudflare/ai-chat@0.0.6 under strict peers (it wants agents ^0.4.0, ai ^6.0.0); name another version',
    );
  });
});

const scratch = mkdtempSync(join(tmpdir(), 'cf-versions-test-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
const write = (path: string, text: string) => {
  mkdirSync(dirname(join(scratch, path)), { recursive: true });
  writeFileSync(join(scratch, path), text);
};

describe('imports and exports', () => {
  it("reads ai-chat's named imports from agents by entry, and the names an entry exports through its re-exports", () => {
    const code = [
      'import { Agent, __DO_NOT_USE_WILL_BREAK__agentContext as ctx } from "agents";',
      'import { STREAM_CLEANUP_DELAY_SECONDS, type X } from "agents/chat";',
      'import { nanoid } from "nanoid";',
    ].join('\n');
    expect(namedImports(code, 'agents')).toEqual(
      new Map([
        ['agents', ['Agent', '__DO_NOT_USE_WILL_BREAK__agentContext']],
        ['agents/chat', ['STREAM_CLEANUP_DELAY_SECONDS', 'X']],
      ]),
    );
    write('pkg/dist/index.js', 'export const a = 1;\nexport function b() {}\nexport * from "./more.js";\nexport { c, d as e };\n');
    write('pkg/dist/more.js', 'export class F {}\nexport { g } from "./g.js";\n');
    expect([...exportedNames(join(scratch, 'pkg/dist/index.js'))].sort()).toEqual(['F', 'a', 'b', 'c', 'e', 'g']);
  });
});

describe('features', () => {
  it("reads the pinned pair's: model spec v4, agents' session tables, approvals that continue on the server", () => {
    expect(features(WORKER_DIR)).toEqual({ modelSpec: 'v4', messageTable: 'cf_agents_session_message', approvalContinues: true, toolApproval: true });
    expect(compatModule(WORKER_DIR)).toContain('export const MODEL_SPEC = "v4";');
  });

  it("reads an older tree's (ai 6, ai-chat's own message table, no autoContinue on approvals), and makes its cells not applicable", () => {
    const dir = join(scratch, 'tree');
    write('tree/node_modules/@cloudflare/ai-chat/package.json', '{"name":"@cloudflare/ai-chat","version":"0.0.6"}');
    write(
      'tree/node_modules/@cloudflare/ai-chat/dist/index.js',
      'this.sql`insert into cf_ai_chat_agent_messages (id, message) values (1, 2)`;\nif (x) { const { toolCallId, approved } = data; }\n',
    );
    write('tree/node_modules/ai/package.json', '{"name":"ai","version":"6.0.333"}');
    write('tree/node_modules/@ai-sdk/provider/package.json', '{"name":"@ai-sdk/provider","version":"3.0.19"}');
    write('tree/node_modules/@ai-sdk/provider/dist/index.d.ts', 'type LanguageModelV3 = {};\n');
    expect(features(dir)).toEqual({ modelSpec: 'v3', messageTable: 'cf_ai_chat_agent_messages', approvalContinues: false, toolApproval: true });
    expect(lacking({ dir, versions: { aiChat: '0.0.6', agents: '0.3.10', ai: '6.0.333' } })).toMatch(
      /^@cloudflare\/ai-chat 0\.0\.6 does not continue a turn on the server after an approval/,
    );
  });
});

describe('signed approvals', () => {
  // A tree with ai (with or without the secret option) and an ai-chat whose message builder is agents/chat's
  // applyChunkToParts, fake here: one copies the chunk's signature onto the part's approval, one drops it.
  const tree = (name: string, ai: string, keeps: boolean) => {
    write(`${name}/node_modules/ai/package.json`, `{"name":"ai","version":"${ai}"}`);
    write(`${name}/node_modules/ai/dist/index.d.ts`, ai.startsWith('6.0.0') ? 'declare function streamText(o: {}): void;\n' : 'declare function streamText(o: { experimental_toolApprovalSecret?: string }): void;\n');
    write(`${name}/node_modules/@cloudflare/ai-chat/package.json`, '{"name":"@cloudflare/ai-chat","version":"9.9.9","type":"module"}');
    write(`${name}/node_modules/@cloudflare/ai-chat/dist/index.js`, 'import { applyChunkToParts, toolApprovalUpdate } from "agents/chat";\nexport {};\n');
    write(`${name}/node_modules/agents/package.json`, '{"name":"agents","version":"9.9.0","type":"module","exports":{"./chat":{"types":"./dist/chat/index.d.ts","import":"./dist/chat/index.js"}}}');
    write(
      `${name}/node_modules/agents/dist/chat/index.js`,
      [
        'function build(parts, chunk) {',
        '  if (chunk.type === "tool-input-available") parts.push({ type: `tool-${chunk.toolName}`, toolCallId: chunk.toolCallId, state: "input-available", input: chunk.input });',
        '  const p = parts.find((x) => x.toolCallId === chunk.toolCallId);',
        '  if (chunk.type === "tool-approval-request" && p) {',
        '    p.state = "approval-requested";',
        `    p.approval = { id: chunk.approvalId${keeps ? ', ...(chunk.signature !== undefined && { signature: chunk.signature })' : ''} };`,
        '  }',
        '  return true;',
        '}',
        'export { build as applyChunkToParts };',
      ].join('\n'),
    );
    return join(scratch, name);
  };
  const versions = { aiChat: '9.9.9', agents: '9.9.0', ai: '7.0.173' };

  it('finds the builder ai-chat imports, and runs the wiring where it keeps the signature', () => {
    const dir = tree('keeps', '7.0.173', true);
    expect(chunkBuilder(join(dir, 'node_modules/@cloudflare/ai-chat'))).toEqual({ file: join(dir, 'node_modules/agents/dist/chat/index.js'), name: 'applyChunkToParts' });
    expect(signedLacking(dir, versions)).toBeUndefined();
  });

  it('makes the wiring not applicable where the builder drops the signature, or ai has no secret option', () => {
    expect(signedLacking(tree('drops', '7.0.173', false), versions)).toBe(
      "@cloudflare/ai-chat 9.9.9 (agents 9.9.0) drops the approval's signature when it stores the tool part (applyChunkToParts keeps { id }), so with experimental_toolApprovalSecret every approved call fails 'missing signature' and the tool never runs: a signed approval cannot be used",
    );
    expect(signedLacking(tree('old-ai', '6.0.0', true), { ...versions, ai: '6.0.0' })).toBe('ai 6.0.0 has no experimental_toolApprovalSecret');
  });
});
