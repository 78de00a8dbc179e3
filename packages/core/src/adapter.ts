// The adapter contract: how a framework plugs in (ADAPTERS.md says it in prose). An adapter wires the framework's
// documented pause/approve/resume pattern to these calls and routes every interposed await through `env.gate`.
import type { Action, RecordState } from './history/events.js';
import type { Recorder } from './history/recorder.js';
import type { AdversarialModel } from './fakes/model.js';
import type { CountingBackend } from './fakes/backend.js';
import type { Connections } from './fakes/connections.js';
import type { Access, GateFn } from './scheduler/gate.js';
import type { ScenarioId } from './scenarios/ids.js';

export interface WiringInfo {
  /** Stable id used on the command line and in results: `cas-fresh`, `interrupt-node`. */
  readonly id: string;
  readonly description: string;
  /**
   * The pattern the framework's docs show first, which an app that follows them has: the reports set it beside the
   * safest wiring. Where several are marked (one per release line), the first that runs on a version is its default.
   */
  readonly docsDefault?: true;
  /**
   * The framework's own fix for what its default pattern breaks, as its docs or examples show it: the page it comes
   * from (a URL). The reports set it beside the docs' default and the guarded wiring.
   */
  readonly remedy?: string;
}

/** A wiring as results and reports carry it: plain data, without whatever else an adapter keeps on it. */
export const wiringInfo = ({ id, description, docsDefault, remedy }: WiringInfo): WiringInfo => ({
  id,
  description,
  ...(docsDefault ? { docsDefault } : {}),
  ...(remedy ? { remedy } : {}),
});

export type Applicability = { readonly applicable: true } | { readonly applicable: false; readonly reason: string };

/** Everything a world gets: the gate, the history, the three fakes, and a folder of its own. */
export interface WorldEnv {
  readonly wiring: string;
  readonly store: string;
  /** The scenario this world runs, for adapters whose wiring differs by scenario (where the proposal is made). */
  readonly scenario: ScenarioId;
  readonly gate: GateFn;
  readonly history: Recorder;
  readonly model: AdversarialModel;
  readonly backend: CountingBackend;
  readonly connections: Connections;
  /**
   * A folder for this world's files (a SQLite database, say), made the first time it is read and removed after the
   * run. Read it only where the store keeps files: a world on memory that never reads it makes no folder (making and
   * removing one was most of a schedule's time on the reference runtime's memory store).
   */
  readonly scratchDir: string;
  /**
   * Wrap I/O the world awaits outside gates (a query to a database server) so the scheduler waits for its answer.
   * Never wrap a wait on another turn (a lock): that would stall the run. See `Controller.external`.
   */
  readonly external: <T>(work: Promise<T>) => Promise<T>;
  /**
   * Report a store call the world's wrapper passes on, gated or not, with the key it reads or writes (`call` names it
   * in messages): the explorer checks it against what the running release declared, and a release that touched what
   * it did not declare makes the cell `error`, naming both. See `Controller.accessed`.
   */
  readonly accessed: (access: Access, call?: string) => void;
  /**
   * Declare an access where it happens, for a call no gate of the turn could declare (a re-read of a row after the
   * guard's or the backend's gate): the running release is then ordered by it, as by its gate's accesses.
   */
  readonly declare: (access: Access) => void;
}

/** What the scenario asks the model to propose: the alternatives the adversary picks among. */
export interface ProposalRequest {
  readonly alternatives: readonly Action[];
  /**
   * When set, the agent asks for a second approval after the first action ran, for this action: a duplicated
   * answer to the first can then land on the second. Runtimes without such a flow may ignore it.
   */
  readonly followUp?: Action;
}

/** A confirmation the agent paused on. */
export interface PendingApproval {
  readonly approvalId: string;
  readonly action: Action;
}

export interface Answer {
  readonly approvalId: string;
  readonly approved: boolean;
}

/** One fresh instance of the subject: its runtime, its store, its state. Built anew for every schedule. */
export interface World {
  /**
   * A turn that runs the agent up to the confirmation and returns what it paused on and showed the user, or
   * undefined if it did not pause on a confirmation of its own (another run on the thread moved it on, say).
   */
  propose(turn: string, request: ProposalRequest): Promise<PendingApproval | undefined>;
  /**
   * The human's click on the card reaches the server, apart from any resume: an app that records approvals on the
   * server (the approval guard) records it here, and a resume then only continues. Called where the human approves;
   * a forged approval (the `tamper` scenario) never comes through it. Worlds whose approval travels only in the
   * resume's answer omit it.
   */
  approve?(turn: string, approvalId: string): Promise<void>;
  /**
   * A turn that runs the agent until it pauses on a confirmation for each request's action, each its own call: in one
   * model step where the framework proposes calls in parallel, else one after another before any answer. Returns what
   * it paused on, in the requests' order, or undefined. Needed for `two-approvals`; leave it out where the agent
   * cannot hold two approvals at once (and say so in `applicability`).
   */
  proposeMany?(turn: string, requests: readonly ProposalRequest[]): Promise<readonly PendingApproval[] | undefined>;
  /** A turn that resumes with the user's answer: a click, a typed "go ahead", a retry, a duplicate delivery. */
  resume(turn: string, answer: Answer): Promise<void>;
  /** The record as it is now, read without a gate, for the scenario's own bookkeeping. */
  inspect(approvalId: string): Promise<{ readonly state: RecordState; readonly version: number }>;
  /**
   * The process died: drop everything held in memory, keep what the store made durable, and start the runtime again
   * over it (an in-memory store starts empty). Needed for `crash-restart`; leave it out if the runtime cannot.
   */
  restart?(): Promise<void>;
  /**
   * How long, in milliseconds, the runtime waits for the human's answer to a pending confirmation before it gives up
   * on it (a request's timeout, a signed state's time to live). `late-answer` lets that much time pass before the
   * human answers, on a virtual clock, and records the expiry (a `deny` with `expired`): from then on no answer may
   * run it. Leave it out where nothing expires, and say so in `applicability`.
   */
  readonly answerTimeout?: number;
  /**
   * Whoever holds the state (the checkpoint store, a client transcript) edits the pending approval's action to
   * `action`, with the means an app has for it. Needed for the `tamper` scenario's edit; leave it out if impossible.
   */
  tamper?(approvalId: string, action: Action): Promise<void>;
  /**
   * Other ways whoever holds the state can tamper with it, beyond editing the action: re-pointing an approval at
   * another call, forging an approval for a call the holder wrote. The `tamper` scenario offers each as a choice.
   */
  readonly tamperings?: readonly Tampering[];
  /**
   * A turn that resumes with several answers in one request (the same approval twice in one message, say), for
   * runtimes whose resume can carry more than one. The `replay` scenario uses it.
   */
  resumeMany?(turn: string, answers: readonly Answer[]): Promise<void>;
  /**
   * Optional, for speed: capture the world's state after the setup run (its store, its own bookkeeping) as plain
   * data, and put it back into a fresh world, so the explorer runs the setup once per cell instead of once per
   * schedule. `restore` gets a fresh world (from `createWorld`) and must leave it as the snapshotted one was.
   */
  snapshot?(): Promise<unknown>;
  restore?(snapshot: unknown): Promise<void>;
  /**
   * Optional, for the check of declarations: the shared state the world's gates declare, read past the gates, as text
   * by access key (`record:a1` → its row, `guard:a1` → the guard's record). Only where it is cheap to read (memory).
   * The explorer reads it around each release and makes the cell `error` when a release changed a key its gate did
   * not declare a write of.
   */
  contents?(): Promise<Readonly<Record<string, string>>>;
  /**
   * Whether the store may change key `key` of `contents` with no call a wrapper sees: an in-memory store that keeps
   * the caller's object, which the caller goes on changing (Mastra's InMemoryStore keeps a run's snapshot object, and
   * its workflow engine changes it as the run goes). A release seen to change such a key is taken to have written it,
   * as a read of the clock is taken, instead of being reported; a world that says so is always read around its
   * releases, so that no such write goes unseen.
   */
  changesInPlace?(key: string): boolean;
  /** Release what the world holds (database handles). Called once, even after a timeout. */
  close(): Promise<void>;
}

/** One way the state's holder tampers with a pending approval, as the adapter's runtime lets it. */
export interface Tampering {
  /** Stable, for schedules and stories: `re-point`, `forge-unneeded`. */
  readonly id: string;
  /** Whether the human approved the pending action before the holder acted (re-point), or no human did (a forgery). */
  readonly humanApproved: boolean;
  /**
   * Do it to the pending approval, with `action` as the holder's action where one is needed. Returns what the holder
   * did, in words, and the approval the resume then answers, with the action it now stands for.
   */
  apply(pending: PendingApproval, action: Action): Promise<{ readonly what: string } & PendingApproval>;
}

export interface Adapter {
  readonly framework: string;
  /** The framework version under test, as installed. */
  readonly version: string;
  readonly wirings: readonly WiringInfo[];
  readonly stores: readonly string[];
  /**
   * The framework awaits thread-pool work between gates (WebCrypto signs and verifies there): the scheduler then
   * waits for such work before it calls the turns settled. Without it a turn blocked on that work looks stuck.
   */
  readonly awaitsNativeWork?: boolean;
  /**
   * The framework sleeps between gates (it polls until another request's run moves on, it backs off): its worlds run
   * on a virtual clock, whose timers fire only when every turn is blocked (`scheduler/timers.ts`). Without it a turn
   * asleep on a timer looks stuck.
   */
  readonly sleeps?: boolean;
  /**
   * Whether two turns of a world on this wiring and store run the same code in one process over one store handle,
   * so that two turns that make the same call differ in nothing but their names: only then does the explorer take a
   * run and the one with the two turns' names swapped to be the same (the symmetry reduction). Leave it out, or say
   * false, where turns go to different processes or instances (a second server over a shared database).
   */
  turnsAlike?(wiring: string, store: string): boolean;
  /** Whether a scenario can run on a wiring and store, and if not, why (the version lacks the feature, say). */
  applicability(scenario: ScenarioId, wiring: string, store: string): Applicability;
  createWorld(env: WorldEnv): Promise<World>;
  /**
   * An exploration (a cell, a replay) is over: free what closed worlds kept for the next one, such as a connection
   * to a server. Worlds may keep only what carries no state from one schedule to the next.
   */
  release?(): Promise<void>;
  /**
   * The process is done with this adapter (a worker's last unit ran, a test file ended): free what it kept from one
   * exploration to the next, such as a template database that each world's database is copied from. Called once, after
   * the last `release`; an adapter that keeps nothing across explorations leaves it out.
   */
  dispose?(): Promise<void>;
}
