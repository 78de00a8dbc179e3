/** Where a command writes: stdout for results, stderr for progress and notices. */
export interface Io {
  readonly out: (text: string) => void;
  readonly err: (text: string) => void;
}

export interface Command {
  readonly name: string;
  /** One line for the top-level help. */
  readonly summary: string;
  readonly help: string;
  /** Returns the exit code. Throws UsageError for bad input. */
  readonly run: (argv: readonly string[], io: Io) => number | Promise<number>;
}
