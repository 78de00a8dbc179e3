// A worker that died: the reason its unit's error cells give.
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { lostReason, STDERR_KEPT } from './lost.js';

/** A real Node process that reaches its heap limit: its exit and what V8 wrote on the way out. */
function outOfMemory(): Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--max-old-space-size=16', '-e', 'const a = []; for (;;) a.push(new Array(1e5).fill(1));'], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-STDERR_KEPT)));
    child.on('close', (code, signal) => resolve({ code, signal, stderr }));
  });
}

describe('lostReason', () => {
  it('says how the worker exited, and its last lines', () => {
    expect(lostReason(1, null, 'one\ntwo\nthree\nError: boom\n')).toBe('the worker process exited with code 1: two | three | Error: boom');
    expect(lostReason(null, 'SIGKILL', '')).toBe('the worker process was killed (SIGKILL)');
  });

  it('names running out of memory, and how to give a worker more, where the last lines are a native stack', async () => {
    const { code, signal, stderr } = await outOfMemory();
    expect(stderr).toContain('heap out of memory');
    const reason = lostReason(code, signal, stderr);
    expect(reason).toMatch(/^the worker process ran out of memory \(V8's heap limit\) and (was killed \(SIGABRT\)|exited with code 134): /);
    expect(reason).toContain('NODE_OPTIONS=--max-old-space-size=8192');
    expect(reason).not.toContain('[node]');
    expect(reason).toContain('with --resume, it goes on from its last checkpoint');
    // A unit that left no checkpoint (branch and bound saves none) runs again from the start.
    expect(lostReason(code, signal, stderr, 'unit-from-start')).toContain('with --resume, it runs again from the start (it left no checkpoint)');
    // A worker that only planned a version's units (run --shard) leaves no checkpoint to go on from.
    expect(lostReason(code, signal, stderr, 'plan')).not.toContain('--resume');
  });
});
