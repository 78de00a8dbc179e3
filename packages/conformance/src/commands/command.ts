/** Where a command writes: stdout for results, stderr for progress and notices. */
export interface Io {
  readonly out: (text: string) => void;
  readonly err: (text: string) => void;
  /**
   * Set only when stderr is a terminal (see `terminal.ts`): shows `line` as the one status line at the bottom of
   * stderr, replacing the one before ('' removes it); what `out` and `err` write goes above it. Without it, progress
   * is written as whole lines, as to a file or a pipe.
   */
  readonly status?: (line: string) => void;
}

export interface Command {
  readonly name: string;
  /** One line for the top-level help. */
  readonly summary: string;
  readonly help: string;
  /** Returns the exit code. Throws UsageError for bad input. */
  readonly run: (argv: readonly string[], io: Io) => number | Promise<number>;
}
