// Why a worker ended without finishing, in words: how it exited, and what it last wrote to stderr.

/** How much of a worker's stderr the runner keeps: V8's out-of-memory message sits above a native stack trace. */
export const STDERR_KEPT = 16_000;

const tail = (text: string) => text.trim().split('\n').slice(-3).join(' | ').slice(0, 400);

/**
 * V8's last words when a process reaches its heap limit. What follows them is a native stack trace, whose last lines
 * say nothing of the cause.
 */
const OUT_OF_MEMORY = /Reached heap limit|JavaScript heap out of memory/;

/** How the reason of a unit whose worker ran out of memory begins: `--resume` goes on from its checkpoint. */
const RAN_OUT = 'the worker process ran out of memory';

export const ranOutOfMemory = (reason: string | undefined) => reason?.startsWith(RAN_OUT) ?? false;

/**
 * Why a worker ended: `running` a unit that left a checkpoint (which `--resume` goes on from), a unit that left none
 * (`unit-from-start`: branch and bound saves none, nor a unit stopped before its first), or only planning a version's
 * units (`run --shard`), which leaves nothing to resume.
 */
export function lostReason(
  code: number | null,
  signal: NodeJS.Signals | null,
  stderr: string,
  running: 'unit' | 'unit-from-start' | 'plan' = 'unit',
): string {
  const how = signal ? `was killed (${signal})` : `exited with code ${code}`;
  if (OUT_OF_MEMORY.test(stderr)) {
    const more = `NODE_OPTIONS=--max-old-space-size=8192 (in MB) in the runner's environment, which its workers inherit`;
    const resume =
      running === 'unit' ? '; with --resume, it goes on from its last checkpoint' : running === 'unit-from-start' ? '; with --resume, it runs again from the start (it left no checkpoint)' : '';
    return `${RAN_OUT} (V8's heap limit) and ${how}: run it again with more, ${more}${resume}`;
  }
  const said = tail(stderr);
  return `the worker process ${how}${said ? `: ${said}` : ''}`;
}
