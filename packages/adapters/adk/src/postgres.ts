// ADK's DatabaseSessionService on PostgreSQL (MikroORM with `@mikro-orm/postgresql`, which talks to the server
// through `pg`). Opening one runs MikroORM's start-up and ADK's schema set-up, a tenth of a second, so an
// exploration opens one per cell on a schema of its own, and each world is that service under a session of its own:
// an object whose prototype is the shared service, so that the world's gates wrap only its own calls. A restart is a
// new process: a new service over the same schema. The schema is dropped when the exploration ends (`release`).
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { postgresGuardRecords, worldNamePrefix } from '@approval-conformance/core/kit';
import type { AdkLib } from './lib.js';
import type { Any } from './record.js';
import { APP, USER, type Backing } from './sessions.js';

/** Where the PostgreSQL server is: APPROVAL_CONFORMANCE_POSTGRES (the runner's --postgres sets it). */
export const postgresUrl = () => process.env['APPROVAL_CONFORMANCE_POSTGRES'];

let schemas = 0;

/**
 * A connection for the guard's table, from the service's own pool (MikroORM's knex over `pg`): the app keeps the
 * guard's records in the database that keeps its sessions.
 */
function queryable(service: Any) {
  return {
    async query(sql: string, params?: unknown[]) {
      const knex = service.orm.em.getConnection().getKnex();
      const connection = await knex.client.acquireConnection();
      try {
        return await connection.query(sql, params);
      } finally {
        await knex.client.releaseConnection(connection);
      }
    },
  } as Any;
}

export class PostgresSessions {
  #shared: Promise<{ schema: string; service: Any }> | undefined;
  #worlds = 0;

  constructor(readonly lib: AdkLib) {}

  /** The driver the version's DatabaseSessionService loads, from where the version is installed. */
  #options(schema: string) {
    const url = postgresUrl();
    if (!url) throw new Error('no PostgreSQL server: set APPROVAL_CONFORMANCE_POSTGRES (or pass --postgres URL)');
    const { PostgreSqlDriver } = createRequire(join(this.lib.dir, 'package.json'))('@mikro-orm/postgresql');
    return { driver: PostgreSqlDriver, clientUrl: url, schema, pool: { min: 0, max: 2 } };
  }

  async #start(schema: string): Promise<Any> {
    const service = new this.lib.adk.DatabaseSessionService(this.#options(schema));
    // Its start-up (MikroORM, the tables) runs on first use: here, outside any request.
    await service.listSessions({ appName: APP, userId: USER });
    return service;
  }

  #sharedService() {
    this.#shared ??= (async () => {
      const schema = `${worldNamePrefix()}adk_${++schemas}`;
      return { schema, service: await this.#start(schema) };
    })();
    return this.#shared;
  }

  /** A world's backing: a session of its own in the cell's schema, and (guarded) a table of its own for the guard. */
  backing(): Backing {
    let schema = '';
    const sessionId = `s${++this.#worlds}`;
    const where = { appName: APP, userId: USER, sessionId };
    const proto = this.lib.adk.DatabaseSessionService.prototype;
    const restarted = new Set<Any>();
    let first = true;
    let cellService: Any;
    let guardTable: string | undefined;
    return {
      sessionId,
      open: async () => {
        const { schema: cellSchema, service } = await this.#sharedService();
        schema = cellSchema;
        if (first) {
          first = false;
          cellService = service;
          return Object.create(service);
        }
        const fresh = await this.#start(schema);
        restarted.add(fresh);
        return fresh;
      },
      async read(service) {
        const session = await proto.getSession.call(service, where);
        return JSON.parse(JSON.stringify(session?.events ?? []));
      },
      async write(service, events) {
        await proto.deleteSession.call(service, where);
        const session = await proto.createSession.call(service, { appName: APP, userId: USER, sessionId });
        for (const event of events) await proto.appendEvent.call(service, { session, event: JSON.parse(JSON.stringify(event)) });
      },
      async close(service) {
        if (!restarted.has(service)) return;
        restarted.delete(service);
        await service.orm?.close?.();
      },
      guardRecords: (service) => postgresGuardRecords(queryable(service), (guardTable = `${schema}.guard_${sessionId}`)),
      // The guard's table goes with the world: a cell's worlds run by the thousand, and a schema of that many tables
      // could not be dropped at once (PostgreSQL takes a lock per table). The session's rows stay until the schema goes.
      async end() {
        if (guardTable && cellService) await queryable(cellService).query(`DROP TABLE IF EXISTS ${guardTable}`);
      },
      cheap: false,
      blindAppends: false,
    };
  }

  /** The exploration is over: drop its schema and close its service. */
  async release(): Promise<void> {
    const shared = this.#shared;
    this.#shared = undefined;
    if (!shared) return;
    const { schema, service } = await shared;
    try {
      await service.orm.em.getConnection().execute(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    } finally {
      await service.orm.close();
    }
  }
}
