// What an installed LangGraph server can do, found by looking at it rather than at its version number.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { serverDist } from './server.js';
import type { ServerLib } from './lib.js';

export interface Features {
  /** The server can be started in-process (`@langchain/langgraph-api/server`, from 0.0.64). */
  readonly inProcess: boolean;
}

export function detectFeatures(lib: ServerLib): Features {
  let dist: string;
  try {
    dist = serverDist(lib);
  } catch {
    return { inProcess: false };
  }
  return { inProcess: existsSync(join(dist, 'server.mjs')) && existsSync(join(dist, 'storage', 'ops.mjs')) };
}
