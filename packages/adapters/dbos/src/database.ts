// The system databases a worker's worlds run on, on the suite's PostgreSQL server (APPROVAL_CONFORMANCE_POSTGRES,
// which scripts/postgres.sh starts): one migrated once per DBOS version as a template, and a clone of it for each
// world (CREATE DATABASE ... TEMPLATE, a copy of the files: tens of milliseconds, where DBOS's 100-odd migrations
// take a quarter of a second), dropped when the world closes. A clone starts with exactly the template's rows, so every
// world of a cell starts from the same state. Names start with the worker's prefix (`w_<tag>_`), so that the runner
// can drop what a killed worker left.
import { worldNamePrefix } from '@approval-conformance/core/kit';
import type { DbosLib, Module } from './lib.js';

/** Where the PostgreSQL server is: APPROVAL_CONFORMANCE_POSTGRES (the runner's --postgres sets it). */
export const postgresUrl = () => process.env['APPROVAL_CONFORMANCE_POSTGRES'];

/** The message for a run with no server: what to start, and how. */
export const NO_SERVER =
  'DBOS runs on PostgreSQL, and no server is configured: pass --postgres URL (or set APPROVAL_CONFORMANCE_POSTGRES); in the suite repository, eval "$(bash scripts/postgres.sh start)" starts a throwaway one';

/** The URL of database `name` on the server `url` names. */
export function databaseUrl(url: string, name: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${name}`;
  return parsed.toString();
}

const quoted = (name: string) => `"${name.replace(/"/g, '""')}"`;

export class Databases {
  #admin: Promise<Module> | undefined;
  #template: Promise<string> | undefined;
  #strategy: Promise<string> | undefined;
  #copier: Promise<Module> | undefined;
  #next: Promise<string> | undefined;
  #drops: Promise<unknown>[] = [];
  #queue: Promise<unknown> = Promise.resolve();
  #worlds = 0;

  constructor(
    readonly lib: DbosLib,
    /** Migrates a fresh database at `url` the way this version's launch would: DBOS's own migrations. */
    readonly migrate: (url: string) => Promise<void>,
  ) {}

  get server(): string {
    const url = postgresUrl();
    if (!url) throw new Error(NO_SERVER);
    return url;
  }

  /** A new connection to the server's maintenance database. */
  async #connect(): Promise<Module> {
    const client = new this.lib.pg.Client({ connectionString: this.server });
    client.on('error', () => undefined);
    await client.connect();
    return client;
  }

  /** A connection to the server's maintenance database, for CREATE and DROP DATABASE. */
  admin(): Promise<Module> {
    this.#admin ??= this.#connect();
    return this.#admin;
  }

  /** This version's template: made and migrated once per worker process. */
  template(): Promise<string> {
    this.#template ??= (async () => {
      const name = `${worldNamePrefix()}dbos_template_${this.lib.version.replace(/\W/g, '_')}`;
      const admin = await this.admin();
      await admin.query(`DROP DATABASE IF EXISTS ${quoted(name)} WITH (FORCE)`);
      await admin.query(`CREATE DATABASE ${quoted(name)}`);
      await this.migrate(databaseUrl(this.server, name));
      // A template must have no session open when it is copied.
      await admin.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()`, [name]);
      return name;
    })();
    return this.#template;
  }

  /**
   * A new database for one world, a copy of the template. The copy for the next world is made while this one runs
   * (on a connection of its own), so that a world waits for none but the first.
   */
  async clone(): Promise<{ readonly name: string; readonly url: string }> {
    const next = this.#next ?? this.#copy();
    this.#next = this.#copy();
    // A copy that failed is said by the world that takes it; the one made meanwhile is left for the next.
    this.#next.catch(() => undefined);
    const name = await next;
    return { name, url: databaseUrl(this.server, name) };
  }

  async #copy(): Promise<string> {
    const template = await this.template();
    const name = `${worldNamePrefix()}dbos_${process.pid}_${++this.#worlds}`;
    // PostgreSQL 15 copies a template through the WAL by default, block by block (a fifth of a second here); a copy of
    // its files is a tenth of that, and what older servers always do.
    this.#strategy ??= this.#onSecond(async (client) => {
      const { rows } = await client.query(`SHOW server_version_num`);
      return Number(rows[0]?.server_version_num) >= 150000 ? ' STRATEGY FILE_COPY' : '';
    });
    const strategy = await this.#strategy;
    await this.#onSecond((client) => client.query(`CREATE DATABASE ${quoted(name)} TEMPLATE ${quoted(template)}${strategy}`));
    return name;
  }

  /** A second connection, for the copies and drops made while a world runs. */
  #second(): Promise<Module> {
    this.#copier ??= this.#connect();
    return this.#copier;
  }

  /** Runs `work` on the second connection once what was asked of it before is done: one statement at a time. */
  #onSecond<T>(work: (client: Module) => Promise<T>): Promise<T> {
    const run = this.#queue.then(() => this.#second()).then(work);
    this.#queue = run.catch(() => undefined);
    return run;
  }

  /** A world is done with its database: dropped while the next one runs (`release` waits for the drops). */
  dispose(name: string): void {
    const dropped = this.#onSecond((client) => client.query(`DROP DATABASE IF EXISTS ${quoted(name)} WITH (FORCE)`));
    this.#drops.push(dropped.catch(() => undefined));
  }

  /** Ends every session on `name` whose application_name is `application` (a process that died: its transactions roll back). */
  async terminate(name: string, application: string): Promise<void> {
    await (await this.admin()).query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND application_name = $2`, [name, application]);
  }

  /** The exploration is over: drop its worlds' databases and the copy made ahead; the template stays for the next. */
  async release(): Promise<void> {
    const next = this.#next;
    this.#next = undefined;
    const spare = await next?.catch(() => undefined);
    if (spare) this.dispose(spare);
    await Promise.all(this.#drops.splice(0));
  }

  /** The process is done with this version: drop the template too, and close the connections. */
  async close(): Promise<void> {
    await this.release();
    const [admin, copier, template] = [this.#admin, this.#copier, this.#template];
    this.#admin = this.#copier = this.#template = undefined;
    const name = await template?.catch(() => undefined);
    const client = admin ? await admin : undefined;
    if (client && name) await client.query(`DROP DATABASE IF EXISTS ${quoted(name)} WITH (FORCE)`).catch(() => undefined);
    await client?.end().catch(() => undefined);
    await (await copier)?.end().catch(() => undefined);
  }
}
