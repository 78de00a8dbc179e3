// The exit codes, the same for every command, so that CI can act on them without reading the text.
export const EXIT = {
  /** The command did what it was asked (a run finished, whatever its verdicts, unless a gate says otherwise). */
  done: 0,
  /** A gate the caller set tripped: `run --fail-on fail`, `diff --exit-code` or `--fail-on`, a replay that differed. */
  gate: 1,
  /** Bad usage or input: an unknown option or framework, a bad results file, a path that cannot be written. */
  usage: 2,
  /** The run could not complete: a version would not install or import, error or timeout cells with `--fail-on error`. */
  incomplete: 3,
} as const;

/** The exit codes for a command's --help: what trips its gate, and what leaves it unable to complete. */
export function exitCodesHelp(gate: string, incomplete = 'an internal error (a bug in the suite)'): string {
  return `Exit codes (the same for every command):
  0  done
  1  a gate tripped: ${gate}
  2  usage or input error (a bad option, framework or results file, a path
     that cannot be written); nothing was written
  3  could not complete: ${incomplete}
  130  interrupted (Ctrl-C); a run keeps what it finished: continue it with --resume
`;
}
