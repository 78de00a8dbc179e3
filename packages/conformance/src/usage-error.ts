/** Bad input from the user: printed as one line on stderr, exit code 2, never a stack trace. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}
