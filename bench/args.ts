// The benches' command lines: `--name VALUE` options taken out of the arguments, and one way to fail.

/** Prints `bench:NAME: message` on stderr and exits 2 (bad input). */
export const failer =
  (bench: string) =>
  (message: string): never => {
    console.error(`bench:${bench}: ${message}`);
    process.exit(2);
  };

/** Takes `--name VALUE` out of `args` and returns VALUE, or undefined when it is not there. */
export function takeFlag(args: string[], name: string, fail: (message: string) => never): string | undefined {
  const at = args.indexOf(name);
  if (at < 0) return undefined;
  const value = args[at + 1];
  if (value === undefined || value.startsWith('--')) fail(`${name} needs a value`);
  args.splice(at, 2);
  return value;
}
