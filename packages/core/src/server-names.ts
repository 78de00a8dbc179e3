// Names for a world's state on a shared server (a PostgreSQL schema): `w_<owner>_<unique>`, where the owner is the
// worker process. The runner gives each worker a random tag (APPROVAL_CONFORMANCE_WORKER_TAG), so that when it has
// to stop a worker it can drop exactly that worker's leftovers, even on a server other runners share; outside the
// runner the owner is the process id.

export const WORKER_TAG_ENV = 'APPROVAL_CONFORMANCE_WORKER_TAG';

/** The prefix of every server-side name this process's worlds make, e.g. `w_3f9a0c1d_`. */
export function worldNamePrefix(): string {
  const tag = process.env[WORKER_TAG_ENV];
  return `w_${tag && /^[a-z0-9]{1,16}$/.test(tag) ? tag : process.pid}_`;
}
