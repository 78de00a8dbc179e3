// A toy agent framework, standing in for the real one until you replace it: it knows nothing of the suite. An agent
// asks its model for a tool call; a call to a tool that needs approval is stored as a pending approval and the run
// pauses; `resume` continues it with the user's answer. This is its "documented" pattern, and it has the classic bug:
// `resume` reads the record, checks that it is still pending, runs the tool, and only then marks it done. The check
// and the spend are separate awaits, so two resumes of one approval (a click and a retry, two tabs) can both pass the
// check, and the tool runs twice. The suite finds it (`resume` wiring); the guarded wiring keeps it from mattering.
//
// For a real framework, delete this file: the adapter imports the framework (from npm) instead.

/** This toy's one version. A real framework's comes from its installed package.json. */
export const VERSION = '0.1.0';

/** Whatever the caller passes with a run or a resume, handed to every model, tool and store call it causes. */
export type Context = Readonly<Record<string, unknown>>;

/** A call the model asks for: its id names the pending approval, if the tool needs one. */
export interface ToolCall {
  readonly id: string;
  readonly tool: string;
  readonly input: unknown;
}

/** A pending approval, as the framework persists it. */
export interface ApprovalRecord {
  readonly id: string;
  readonly call: ToolCall;
  readonly status: 'pending' | 'done' | 'denied';
  /** Bumped by the store on every put (as an etag or a row version would be). */
  readonly revision: number;
  readonly result?: unknown;
}

/** Where the framework keeps its pending approvals: pluggable, as a checkpointer is. */
export interface ApprovalStore {
  get(id: string, context: Context): Promise<ApprovalRecord | undefined>;
  put(record: Omit<ApprovalRecord, 'revision'>, context: Context): Promise<void>;
}

/** The built-in store: a Map in this process. */
export class MemoryApprovalStore implements ApprovalStore {
  readonly #records = new Map<string, ApprovalRecord>();

  async get(id: string): Promise<ApprovalRecord | undefined> {
    return this.#records.get(id);
  }

  async put(record: Omit<ApprovalRecord, 'revision'>): Promise<void> {
    const revision = (this.#records.get(record.id)?.revision ?? 0) + 1;
    this.#records.set(record.id, { ...record, revision });
  }

  /** Every record, for inspection. */
  records(): ApprovalRecord[] {
    return [...this.#records.values()];
  }
}

/** The model: given the user's input, the tool call it wants. */
export type Model = (input: string, context: Context) => Promise<ToolCall>;

export interface Tool {
  /** The run pauses for the user's approval before this tool runs. */
  readonly needsApproval?: boolean;
  run(input: unknown, call: { readonly id: string; readonly context: Context }): Promise<unknown>;
}

export type RunResult =
  | { readonly status: 'paused'; readonly approval: ToolCall }
  | { readonly status: 'done'; readonly result: unknown };

export type ResumeResult =
  | { readonly status: 'done'; readonly result: unknown }
  | { readonly status: 'denied' }
  /** Nothing to resume: no such approval, or it was answered before. */
  | { readonly status: 'not-pending' };

export interface AgentOptions {
  readonly model: Model;
  readonly tools: Readonly<Record<string, Tool>>;
  readonly store?: ApprovalStore;
}

export class Agent {
  readonly #model: Model;
  readonly #tools: Readonly<Record<string, Tool>>;
  readonly #store: ApprovalStore;

  constructor({ model, tools, store = new MemoryApprovalStore() }: AgentOptions) {
    this.#model = model;
    this.#tools = tools;
    this.#store = store;
  }

  /** Runs the agent on the user's input, up to the pause for an approval, or to the end. */
  async run(input: string, { context = {} }: { context?: Context } = {}): Promise<RunResult> {
    const call = await this.#model(input, context);
    if (this.#tool(call.tool).needsApproval) {
      await this.#store.put({ id: call.id, call, status: 'pending' }, context);
      return { status: 'paused', approval: call };
    }
    return { status: 'done', result: await this.#tool(call.tool).run(call.input, { id: call.id, context }) };
  }

  /**
   * Continues a paused run with the user's answer: reads the pending approval, checks it is still pending, runs the
   * tool, and marks the approval done. A tool that throws leaves it pending, so that the user can try again.
   */
  async resume(approvalId: string, answer: { approved: boolean }, { context = {} }: { context?: Context } = {}): Promise<ResumeResult> {
    const record = await this.#store.get(approvalId, context);
    if (record?.status !== 'pending') return { status: 'not-pending' };
    if (!answer.approved) {
      await this.#store.put({ id: record.id, call: record.call, status: 'denied' }, context);
      return { status: 'denied' };
    }
    const result = await this.#tool(record.call.tool).run(record.call.input, { id: record.id, context });
    await this.#store.put({ id: record.id, call: record.call, status: 'done', result }, context);
    return { status: 'done', result };
  }

  #tool(name: string): Tool {
    const tool = this.#tools[name];
    if (!tool) throw new Error(`no tool '${name}'`);
    return tool;
  }
}
