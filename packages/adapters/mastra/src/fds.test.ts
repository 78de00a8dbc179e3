// A worker runs thousands of Mastra worlds, each opening LibSQL clients (two on libsql-shared, two more on each
// restart): a world that did not close them left the files open, and after about 2,000 schedules every later cell
// read `error` with EMFILE. The open file descriptors must not grow with the schedules run. The default count keeps
// the test short (a world that leaks leaves eight files a schedule: 400 here, against a few handles the driver lets go
// of late); set APPROVAL_CONFORMANCE_FD_SCHEDULES=5000 to run the 5,000.
import { readdirSync, readlinkSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { exploreCell, SCENARIOS } from '@approval-conformance/core';
import { mastraAdapter } from './adapter.js';
import { pinnedLib } from './lib.js';

const SCHEDULES = Number(process.env['APPROVAL_CONFORMANCE_FD_SCHEDULES'] ?? 50);
// Only the worlds' own database files count: the process also holds pipes, sockets and the pool's files, which come
// and go with the event loop and with whatever else shares the process.
const openDatabases = () =>
  readdirSync('/proc/self/fd').filter((fd) => {
    try {
      return /mastra\.db(-wal|-shm|-journal)?( \(deleted\))?$/.test(readlinkSync(`/proc/self/fd/${fd}`));
    } catch {
      return false; // closed between the listing and the look
    }
  }).length;

describe.skipIf(process.platform !== 'linux')('LibSQL clients', () => {
  it(`are closed with their world: ${SCHEDULES} schedules on libsql-shared leave the open files as they were`, async () => {
    const adapter = await mastraAdapter(await pinnedLib('1.71'));
    // One cell first, so that what a first run opens once (modules, the pool's threads) is open before counting.
    const subject = { adapter, wiring: 'guarded-workflow-suspend', store: 'libsql-shared', scenario: SCENARIOS.get('crash-restart')! };
    await exploreCell(subject);
    const before = openDatabases();
    const cell = await exploreCell({ ...subject, scenario: SCENARIOS.get('overlapping-turns')! }, { reduce: false, maxSchedules: SCHEDULES });
    expect(cell.schedules).toBe(SCHEDULES);
    expect(cell.verdicts.map((v) => v.verdict)).toEqual(['pass']);
    // A world that leaves its clients open leaves eight files per schedule (400 here). Closed ones leave a few
    // handles that the native driver lets go of later (between -3 and 20 seen), never more than a few worlds' worth.
    expect(openDatabases() - before).toBeLessThan(100);
  }, 600_000);
});
