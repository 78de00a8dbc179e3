// A framework's part of a standalone reproduction (`approval-conformance repro`): the app between the scenario's world
// and its steps, in plain JavaScript that imports the framework alone. The runner writes the rest:
//   the world   `backend.transfer(amount)` counts what was applied; `resumeRead(value)` is a resume's read of the
//               paused run, where the scenario holds two requests to meet (wrap the framework's read with it)
//   the steps   call `ask()` (the user's request, run to the card), `click()` (the user's Approve), `forge()` (an
//               approval no human gave), `resume()` (one request that resumes), and `restart()` where a scenario
//               crashes (define it only for stores whose script differs: a new process over what the store kept);
//               replay's steps need an app whose agent goes on to ask for the next action (`backend.notify()`), and
//               that says so by defining `askNext()`
// and the app pushes what it tells the user onto `told` ('the transfer happened', 'the transfer failed').

/** A framework's documented app, as the script's middle: its imports, and `ask`, `click`, `forge`, `resume`. */
export interface AppSource {
  readonly imports: string;
  readonly app: string;
  /**
   * What the script prints on this framework, where the scenario's own text does not say it (a restart over an
   * in-memory store that loses nothing, because the server kept nothing): its README's "Actual" line.
   */
  readonly actual?: string;
  /** A paragraph of its README after the command that runs it: what the script needs first (a database server). */
  readonly readme?: string;
  /** What the script runs after the scenario's steps, for a runtime that keeps the process alive (shut it down). */
  readonly finish?: string;
}

export interface FrameworkRepro {
  /** The descriptor's name. */
  readonly framework: string;
  /** The package the cell's version is a version of. */
  readonly packageName: string;
  /** What the reproduction's package.json pins for a version of it. */
  readonly dependencies: (version: string) => Record<string, string>;
  /**
   * The app for a wiring, or undefined where no standalone app is written for it. `store` is the cell's, for the
   * scenarios whose script differs by store (a crash's restart keeps what a durable store kept, and nothing of an
   * in-memory one); the app then defines `restart()`.
   */
  readonly app: (wiring: string, store?: string, scenario?: string) => AppSource | undefined;
  /** Why a scenario's script would not show a wiring's failure, where the scenario's one meeting cannot force it. */
  readonly cannot?: (wiring: string, scenario: string) => string | undefined;
}

/** A crash's restart where a new process starts from nothing the store kept: `boot()` again, with why. */
export const bootAgain = (what: string) => `

// A new process: ${what}.
async function restart() {
  boot();
}`;
