/** The run could not be done (an install failed, say): one line on stderr, exit code 3, never a stack trace. */
export class RunFailure extends Error {
  override readonly name = 'RunFailure';
}
