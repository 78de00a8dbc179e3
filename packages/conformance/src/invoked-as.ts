// How the user ran the CLI, for the commands a hint prints: `pnpm conformance` in a clone of the suite (its root
// script runs the CLI from source), `approval-conformance` where it is installed.
export function invokedAs(): string {
  const script = process.env['npm_lifecycle_event'];
  const fromSource = script && process.env['npm_lifecycle_script']?.includes('packages/conformance/src/cli.ts');
  return fromSource ? `pnpm ${script}` : 'approval-conformance';
}

/** Both ways, for files read away from the terminal (the reports): the clone's first. */
export const BOTH_WAYS = (rest: string) => `\`pnpm conformance ${rest}\` in a clone of the suite (\`approval-conformance ${rest}\` where it is installed)`;
