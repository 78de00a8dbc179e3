// Output to a terminal: one status line that updates in place at the bottom of stderr, and every other line above it.
// Only the process's own streams get this (cli.ts, when stderr is a TTY); a pipe, a file or a test sees whole lines.
import type { Io } from './commands/command.js';

/** Back to the start of the line, and clear it. */
const CLEAR = '\r\x1b[K';

/**
 * An Io whose `status` keeps one line at the bottom of the terminal. `columns` is the terminal's width now (it may be
 * resized): a status line is cut to fit it, since a line that wraps could no longer be cleared.
 */
export function terminalIo(write: { out: (text: string) => void; err: (text: string) => void }, columns: () => number | undefined): Io {
  /** The status line, whether it is on the screen now, and whether the last text written left a line open. */
  let status = '';
  let shown = false;
  let open = false;
  /** Writes `text` above the status line: clears it, writes, and shows it again below once `text` ends a line. */
  const above = (put: (text: string) => void) => (text: string) => {
    if (text === '') return;
    if (shown) write.err(CLEAR);
    shown = false;
    put(text);
    open = !text.endsWith('\n');
    if (status && !open) {
      write.err(status);
      shown = true;
    }
  };
  return {
    out: above(write.out),
    err: above(write.err),
    status(line) {
      // A terminal that does not say its width (0, as under `script`) is taken to be 80 wide.
      const width = Math.max(10, (columns() || 80) - 1);
      status = line.length > width ? `${line.slice(0, width - 1)}…` : line;
      if (shown) write.err(CLEAR);
      else if (open && status) write.err('\n');
      if (status) write.err(status);
      shown = status !== '';
      open = open && !shown;
    },
  };
}
