// Mutants the suite must kill. Each makes one small change that a wrong adapter, guard or runtime could have: a gate
// that declares less than its code touches (an access dropped, or a write declared as a read, as something else, or as
// a compare-and-set's where nothing records whether it wrote), the guard's compare-and-set removed, the reference
// runtime's fresh read skipped. Each must be caught: by the check of declarations (the cell reads `error`, naming the
// release), or by a verdict or shortest length that differs from what the unmutated subject gives (what `audit`
// compares: the unreduced explorer ignores declarations). A mutant nothing catches is a hole in the suite's trust,
// and fails here.
import { afterEach, describe, expect, it } from 'vitest';
import { exploreCell, GatedAppRecord, SCENARIOS, type Access, type Adapter, type ExploreOptions, type GateOptions, type ScenarioId } from '@approval-conformance/core';
import { MemoryGuardStore } from '@approval-conformance/guard';
import { referenceAdapter, WIRINGS } from '@approval-conformance/adapter-reference';
import { langgraphAdapter, pinnedLib as langgraphLib } from '@approval-conformance/adapter-langgraph';
import { aiSdkAdapter, pinnedLib as aiLib } from '@approval-conformance/adapter-ai-sdk';
import { openaiAgentsAdapter, pinnedLib as agentsLib } from '@approval-conformance/adapter-openai-agents';
import { mastraAdapter, pinnedLib as mastraLib } from '@approval-conformance/adapter-mastra';
import { langgraphServerAdapter, pinnedLib as serverLib } from '@approval-conformance/adapter-langgraph-server';
import { adkAdapter, pinnedLib as adkLib } from '@approval-conformance/adapter-adk';
import { cloudflareAgentsAdapter } from '@approval-conformance/adapter-cloudflare-agents';

/**
 * How a mutant changes what a gate declares, for a gate whose label matches. The change is made to the declaration's
 * own objects, in place, as an edit of the adapter's source would make it: a wrapper that reported the object its gate
 * declared (so that what it "saw" was the declaration, a check that cannot fail) would report the mutant too, and the
 * mutant would live. `copy` changes only this call's declaration (an edit of one call site). Every in-place change
 * is undone after its test.
 */
interface GateMutation {
  readonly label: RegExp;
  /** Changes the declaration's objects in place. */
  readonly change?: (declared: Access[]) => void;
  /** Or gives this call a declaration of its own. */
  readonly replace?: (declared: readonly Access[]) => Access[];
}

const undo: (() => void)[] = [];
afterEach(() => {
  for (const step of undo.splice(0).reverse()) step();
});
/** Sets `field` of `target` to `value`, to be put back after the test. */
function edit<T extends object, K extends keyof T>(target: T, field: K, value: T[K]): void {
  const before = target[field];
  target[field] = value;
  undo.push(() => void (target[field] = before));
}
/** Empties `array`, to be refilled after the test. */
function empty<T>(array: T[]): void {
  const before = array.splice(0);
  undo.push(() => void array.splice(0, array.length, ...before));
}
type Writable = { -readonly [K in keyof Access]: Access[K] };

const dropped = (label: RegExp): GateMutation => ({ label, change: (d) => empty(d) });
const asRead = (label: RegExp): GateMutation => ({ label, change: (d) => d.forEach((a: Writable) => edit(a, 'mode', 'read')) });
const asCard = (label: RegExp): GateMutation => ({ label, change: (d) => d.forEach((a: Writable) => (edit(a, 'key', 'card'), edit(a, 'mode', 'write'))) });
/** A write declared a compare-and-set's (`conditional`): taken for a read wherever the release recorded no write. */
const asConditional = (label: RegExp): GateMutation => ({ label, change: (d) => d.forEach((a: Writable) => edit(a, 'conditional', true)) });
/** One call site's declaration changed (other gates that share the declaration keep theirs). */
const atCall = (label: RegExp, replace: (declared: readonly Access[]) => Access[]): GateMutation => ({ label, replace });

/** The adapter, its worlds' gates changed by `mutation` (and, where asked, their declarations where they happen dropped). */
function mutated(adapter: Adapter, mutation: GateMutation | undefined, noDeclare = false): Adapter {
  const at = (label: string, options: GateOptions): GateOptions => {
    if (!mutation?.label.test(label) || !options.access) return options;
    if (mutation.replace) return { ...options, access: mutation.replace(options.access) };
    mutation.change?.(options.access as Access[]);
    return options;
  };
  return {
    ...adapter,
    createWorld: (env) =>
      adapter.createWorld({
        ...env,
        gate: (turn, label, options: GateOptions = {}) => env.gate(turn, label, at(label, options)),
        ...(noDeclare ? { declare: () => {} } : {}),
      }),
  };
}

type Outcome = Record<string, string>;

/**
 * The options `run` explores a cell with when given none (`commands/run.ts`): every schedule, every reduction, contents
 * checked. A mutant must die on that path, not only under `audit`.
 */
const RUN_DEFAULTS: ExploreOptions = { mode: 'exhaustive', seed: 1, reduce: true, checkContents: true };

async function outcome(adapter: Adapter, wiring: string, store: string, scenario: ScenarioId): Promise<Outcome> {
  const cell = await exploreCell({ adapter, wiring, store, scenario: SCENARIOS.get(scenario)! }, RUN_DEFAULTS);
  return Object.fromEntries(cell.verdicts.map((v) => [v.property, `${v.verdict} ${v.counterexample?.steps ?? ''} ${v.reason ?? ''}`.trim()]));
}

/** What killed the mutant, or 'nothing'. */
function killer(original: Outcome, mutant: Outcome): 'declarations' | 'verdict' | 'nothing' {
  if (Object.values(mutant).some((v) => v.includes('declared accesses do not cover'))) return 'declarations';
  return JSON.stringify(original) === JSON.stringify(mutant) ? 'nothing' : 'verdict';
}

interface Mutant {
  readonly name: string;
  readonly adapter: () => Promise<Adapter>;
  readonly wiring: string;
  readonly scenario: ScenarioId;
  readonly store?: string;
  readonly mutation?: GateMutation;
  readonly noDeclare?: boolean;
  readonly killedBy: 'declarations' | 'verdict';
}

const once = <T>(make: () => Promise<T>) => {
  let made: Promise<T> | undefined;
  return () => (made ??= make());
};
const reference = async () => referenceAdapter;
const langgraph = once(async () => langgraphAdapter(await langgraphLib(1)));
const ai = once(async () => aiSdkAdapter(await aiLib(7)));
const agents = once(async () => openaiAgentsAdapter(await agentsLib('0.20')));
const mastra = once(async () => mastraAdapter(await mastraLib('1.71')));
const server = once(async () => langgraphServerAdapter(await serverLib()));
const adk = once(async () => adkAdapter(await adkLib('2')));
const cloudflare = async () => cloudflareAgentsAdapter();

const MUTANTS: readonly Mutant[] = [
  { name: 'reference: a store write declared as a read', adapter: reference, wiring: 'after-snapshot', scenario: 'double-resume', mutation: asRead(/^store\.write/), killedBy: 'declarations' },
  { name: 'reference: a store write declared as a card', adapter: reference, wiring: 'before-fresh', scenario: 'double-resume', mutation: asCard(/^store\.write/), killedBy: 'declarations' },
  { name: 'reference: the store read declares nothing', adapter: reference, wiring: 'before-fresh', scenario: 'double-resume', mutation: dropped(/^store\.read/), killedBy: 'declarations' },
  { name: 'reference: the lock declares nothing', adapter: reference, wiring: 'after-snapshot-serial', scenario: 'double-resume', mutation: dropped(/^store\.(un)?lock/), killedBy: 'declarations' },
  { name: 'langgraph: a checkpoint put declared as a read', adapter: langgraph, wiring: 'interrupt-node', scenario: 'double-resume', mutation: asRead(/^checkpoint\.put\(/), killedBy: 'declarations' },
  { name: 'langgraph: a task write declared as a read', adapter: langgraph, wiring: 'interrupt-node', scenario: 'double-resume', mutation: asRead(/^checkpoint\.putWrites/), killedBy: 'declarations' },
  { name: 'langgraph: the checkpoint read declares nothing', adapter: langgraph, wiring: 'interrupt-node', scenario: 'double-resume', mutation: dropped(/^checkpoint\.getTuple/), killedBy: 'declarations' },
  { name: "langgraph-server: a run's creation declared as a read", adapter: server, wiring: 'reject', scenario: 'double-resume', mutation: asRead(/^runs\.put/), killedBy: 'declarations' },
  { name: "langgraph-server: the queue's claim of a run declared as a read", adapter: server, wiring: 'enqueue', scenario: 'double-resume', mutation: asRead(/^runs\.next/), killedBy: 'declarations' },
  { name: 'langgraph-server: a checkpoint put declared as a read', adapter: server, wiring: 'reject', scenario: 'double-resume', mutation: asRead(/^checkpoint\.put\(/), killedBy: 'declarations' },
  { name: "adk: the session's event append declared as a read", adapter: adk, wiring: 'require-confirmation', scenario: 'double-resume', mutation: asRead(/^appendEvent\(/), killedBy: 'declarations' },
  { name: "adk: the session's read declares nothing", adapter: adk, wiring: 'require-confirmation', scenario: 'double-resume', mutation: dropped(/^getSession/), killedBy: 'declarations' },
  { name: 'ai: the chat save declared as a read', adapter: ai, wiring: 'native-approval', scenario: 'double-resume', mutation: asRead(/^chat\.save/), killedBy: 'declarations' },
  { name: 'ai: the chat load declares nothing', adapter: ai, wiring: 'native-approval', scenario: 'double-resume', mutation: dropped(/^chat\.load/), killedBy: 'declarations' },
  { name: 'openai-agents: the state save declared as a read', adapter: agents, wiring: 'run-state', scenario: 'double-resume', mutation: asRead(/^state\.save/), killedBy: 'declarations' },
  { name: 'openai-agents: the state load declares nothing', adapter: agents, wiring: 'run-state', scenario: 'double-resume', mutation: dropped(/^state\.load/), killedBy: 'declarations' },
  { name: "openai-agents: the server-owned request's take declared as a read", adapter: agents, wiring: 'server-owned-state', scenario: 'double-resume', mutation: asRead(/^requests\.take/), killedBy: 'declarations' },
  { name: 'mastra: a run read declares nothing', adapter: mastra, wiring: 'agent-approval', scenario: 'double-resume', mutation: dropped(/^(loadWorkflowSnapshot|getWorkflowRunById)/), killedBy: 'declarations' },
  { name: 'mastra: a snapshot write declared as a read', adapter: mastra, wiring: 'agent-approval', scenario: 'double-resume', mutation: asRead(/^(persistWorkflowSnapshot|updateWorkflowState)/), killedBy: 'declarations' },
  { name: 'mastra: re-reads after another gate left undeclared', adapter: mastra, wiring: 'agent-approval', scenario: 'double-resume', noDeclare: true, killedBy: 'declarations' },
  // Cloudflare Agents (workerd): the smallest cell whose releases write the chat and the guard's records, tamper (2
  // schedules). The approval frame's gate declares what the object does on it; after core's gates the world declares
  // where the object goes on (env.declare).
  { name: 'cloudflare-agents: the approval frame declared as a read', adapter: cloudflare, wiring: 'ai-chat-approval', store: 'durable-object', scenario: 'tamper', mutation: asRead(/^client\.send\(tool-approval/), killedBy: 'declarations' },
  { name: 'cloudflare-agents: the approval frame declares nothing', adapter: cloudflare, wiring: 'ai-chat-approval', store: 'durable-object', scenario: 'tamper', mutation: dropped(/^client\.send\(tool-approval/), killedBy: 'declarations' },
  { name: 'cloudflare-agents: the object going on after a binding call left undeclared', adapter: cloudflare, wiring: 'ai-chat-approval', store: 'durable-object', scenario: 'tamper', noDeclare: true, killedBy: 'declarations' },
  // In tamper both spends are refused (no compare-and-set in a turn): crash-restart's first schedule spends.
  { name: "cloudflare-agents: the guard record's compare-and-set declared as a read", adapter: cloudflare, wiring: 'guarded-ai-chat-approval', store: 'durable-object', scenario: 'crash-restart', mutation: asRead(/^guard\.replace/), killedBy: 'declarations' },
  { name: "guard: the guard record's compare-and-set declared as a read", adapter: reference, wiring: 'guarded-after-snapshot', scenario: 'double-resume', mutation: asRead(/^guard\.replace/), killedBy: 'declarations' },
  // The runtime's store beside the guard records nothing: a write there declared conditional would commute as a read.
  { name: 'guard: an unrecorded write declared conditional (a compare-and-set that lost)', adapter: reference, wiring: 'guarded-after-snapshot', scenario: 'double-resume', mutation: asConditional(/^store\.write/), killedBy: 'declarations' },
  { name: "guard: the guard record's read declares nothing", adapter: reference, wiring: 'guarded-after-snapshot', scenario: 'double-resume', mutation: dropped(/^guard\.get/), killedBy: 'declarations' },

  // Issue 52's mutants: each passed the default run unseen, as its wrapper reported what its gate declared, or
  // nothing reported the object's memory. Each is an edit of one call site (`atCall`), as the review made it.
  { name: "adk: the session's event append declared as a read, under the guard", adapter: adk, wiring: 'guarded-require-confirmation', scenario: 'double-resume', mutation: atCall(/^appendEvent\(/, (d) => d.map((a) => ({ ...a, mode: 'read' }))), killedBy: 'declarations' },
  { name: "adk: the session's event append declares nothing, under the guard", adapter: adk, wiring: 'guarded-require-confirmation', scenario: 'double-resume', mutation: atCall(/^appendEvent\(/, () => []), killedBy: 'declarations' },
  { name: "langgraph-server: a run's status write declared as a read", adapter: server, wiring: 'reject', scenario: 'double-resume', mutation: atCall(/^runs\.setStatus/, (d) => d.map((a) => ({ ...a, mode: 'read' }))), killedBy: 'declarations' },
  { name: "langgraph-server: the thread's status write declares nothing", adapter: server, wiring: 'reject', scenario: 'double-resume', mutation: atCall(/^threads\.setStatus/, () => []), killedBy: 'declarations' },
  { name: "langgraph-server: the saver's read declares nothing, under the guard", adapter: server, wiring: 'guarded-reject', scenario: 'double-resume', mutation: atCall(/^checkpoint\.getTuple/, () => []), killedBy: 'declarations' },
  { name: "cloudflare-agents: the model's reply without the object's write", adapter: cloudflare, wiring: 'ai-chat-approval', store: 'durable-object', scenario: 'tamper', mutation: atCall(/^model\.reply/, (d) => d.filter((a) => a.key !== 'object:chat')), killedBy: 'declarations' },

  // For every row, under the guard too (where the framework's store is application state that no event reports): a
  // write declared as a read and a read dropped, each made to the declaration's own objects (in place).
  { name: 'reference: under the guard, the store write declared as a read', adapter: reference, wiring: 'guarded-after-snapshot', scenario: 'double-resume', mutation: asRead(/^store\.write/), killedBy: 'declarations' },
  { name: 'reference: under the guard, the store read declares nothing', adapter: reference, wiring: 'guarded-after-snapshot', scenario: 'double-resume', mutation: dropped(/^store\.read/), killedBy: 'declarations' },
  { name: 'langgraph: under the guard, a checkpoint put declared as a read', adapter: langgraph, wiring: 'guarded-interrupt-node', scenario: 'double-resume', mutation: asRead(/^checkpoint\.put\(/), killedBy: 'declarations' },
  { name: 'langgraph: under the guard, the checkpoint read declares nothing', adapter: langgraph, wiring: 'guarded-interrupt-node', scenario: 'double-resume', mutation: dropped(/^checkpoint\.getTuple/), killedBy: 'declarations' },
  { name: "langgraph-server: the ops' writes declared as reads", adapter: server, wiring: 'reject', scenario: 'double-resume', mutation: asRead(/^runs\.setStatus/), killedBy: 'declarations' },
  { name: 'langgraph-server: under the guard, a checkpoint put declared as a read', adapter: server, wiring: 'guarded-reject', scenario: 'double-resume', mutation: asRead(/^checkpoint\.put\(/), killedBy: 'declarations' },
  // The ops' one read in a turn's releases is the checkpoints' (threads.get runs in the set-up, whose gates declare nothing).
  { name: 'langgraph-server: the checkpoint read declares nothing', adapter: server, wiring: 'reject', scenario: 'double-resume', mutation: dropped(/^checkpoint\.getTuple/), killedBy: 'declarations' },
  { name: 'ai: under the guard, the chat save declared as a read', adapter: ai, wiring: 'guarded-native-approval', scenario: 'double-resume', mutation: asRead(/^chat\.save/), killedBy: 'declarations' },
  { name: 'ai: under the guard, the chat load declares nothing', adapter: ai, wiring: 'guarded-native-approval', scenario: 'double-resume', mutation: dropped(/^chat\.load/), killedBy: 'declarations' },
  { name: 'openai-agents: under the guard, the state save declared as a read', adapter: agents, wiring: 'guarded-run-state', scenario: 'double-resume', mutation: asRead(/^state\.save/), killedBy: 'declarations' },
  { name: 'openai-agents: under the guard, the state load declares nothing', adapter: agents, wiring: 'guarded-run-state', scenario: 'double-resume', mutation: dropped(/^state\.load/), killedBy: 'declarations' },
  { name: 'mastra: under the guard, a snapshot write declared as a read', adapter: mastra, wiring: 'guarded-agent-approval', scenario: 'double-resume', mutation: asRead(/^(persistWorkflowSnapshot|updateWorkflowState)/), killedBy: 'declarations' },
  { name: 'mastra: under the guard, a run read declares nothing', adapter: mastra, wiring: 'guarded-agent-approval', scenario: 'double-resume', mutation: dropped(/^(loadWorkflowSnapshot|getWorkflowRunById)/), killedBy: 'declarations' },
  { name: "mastra: the one-time approvals' delete declared as a read", adapter: mastra, wiring: 'one-time-approval', scenario: 'double-resume', mutation: asRead(/^approvedFingerprints\.delete/), killedBy: 'declarations' },
  { name: "adk: under the guard, the session's read declares nothing", adapter: adk, wiring: 'guarded-require-confirmation', scenario: 'double-resume', mutation: dropped(/^getSession/), killedBy: 'declarations' },
  { name: 'cloudflare-agents: under the guard, the approval frame declared as a read', adapter: cloudflare, wiring: 'guarded-ai-chat-approval', store: 'durable-object', scenario: 'tamper', mutation: asRead(/^client\.send\(tool-approval/), killedBy: 'declarations' },
];

describe('every mutant is killed', () => {
  it.each(MUTANTS.map((m) => [m.name, m] as const))('%s', async (_name, m) => {
    const adapter = await m.adapter();
    const store = m.store ?? 'memory';
    const mutant = await outcome(mutated(adapter, m.mutation, m.noDeclare), m.wiring, store, m.scenario);
    // The check of declarations needs no unmutated run to compare with (it names the release): skip it there.
    const original = m.killedBy === 'declarations' ? {} : await outcome(adapter, m.wiring, store, m.scenario);
    expect(killer(original, mutant)).toBe(m.killedBy);
  });
});

describe("the guard's spend skipped: its compare-and-set made a blind write", () => {
  const replace = MemoryGuardStore.prototype.replace;
  afterEach(() => {
    MemoryGuardStore.prototype.replace = replace;
  });
  const blind = () => {
    // Writes whatever version the record has now: the spend no longer checks that nobody spent it meanwhile.
    MemoryGuardStore.prototype.replace = async function (this: MemoryGuardStore, next, _expected) {
      const now = await this.get(next.id);
      return replace.call(this, next, now?.version ?? -1);
    };
  };

  it('is not seen against a backend that honours the idempotency key (why both backends run)', async () => {
    const original = await outcome(referenceAdapter, 'guarded-after-snapshot', 'memory', 'double-resume');
    blind();
    expect(killer(original, await outcome(referenceAdapter, 'guarded-after-snapshot', 'memory', 'double-resume'))).toBe('nothing');
  });

  it('is killed against a backend that ignores it: the effect runs twice', async () => {
    const original = await outcome(referenceAdapter, 'guarded-after-snapshot', 'memory', 'double-resume-no-keys');
    blind();
    const mutant = await outcome(referenceAdapter, 'guarded-after-snapshot', 'memory', 'double-resume-no-keys');
    expect(killer(original, mutant)).toBe('verdict');
    expect(mutant['at-most-once']).toMatch(/^fail/);
  });
});

describe("the reference runtime's fresh read skipped: a fresh-view wiring checks the restored snapshot", () => {
  // Calibration holds each wiring to the design model's verdicts and shortest traces: a wiring that skips its fresh
  // read has the verdicts or the lengths of the snapshot wiring, not its own.
  it.each([...WIRINGS].filter(([, s]) => s.freshView && s.spendMode !== 'cas').map(([id]) => id))('%s', async (wiring) => {
    const skipped: Adapter = { ...referenceAdapter, createWorld: (env) => referenceAdapter.createWorld({ ...env, wiring: wiring.replace('fresh', 'snapshot') }) };
    const original = await outcome(referenceAdapter, wiring, 'memory', 'double-resume');
    expect(killer(original, await outcome(skipped, wiring, 'memory', 'double-resume'))).toBe('verdict');
  });
});

describe("the server-owned state's take split: the request read, then deleted after an await (what the guide warns against)", () => {
  const update = GatedAppRecord.prototype.update;
  afterEach(() => {
    GatedAppRecord.prototype.update = update;
  });

  it.each(['memory', 'sqlite'])('is killed on %s: both decisions take the request, and the effect runs twice', async (store) => {
    const adapter = await agents();
    const original = await outcome(adapter, 'server-owned-state', store, 'double-resume');
    expect(original['at-most-once']).toMatch(/^pass/);
    // The take becomes a load and, at a gate of its own, a write of what the load saw with the request removed.
    GatedAppRecord.prototype.update = async function (this: GatedAppRecord<unknown>, turn, name, change, options) {
      if (name !== 'take') return update.call(this, turn, name, change, options);
      const seen = await this.load(turn);
      const { value, result } = change(seen);
      if (value !== undefined) await this.save(turn, value);
      return result;
    } as typeof update;
    const mutant = await outcome(adapter, 'server-owned-state', store, 'double-resume');
    expect(killer(original, mutant)).toBe('verdict');
    expect(mutant['at-most-once']).toMatch(/^fail/);
  });
});
