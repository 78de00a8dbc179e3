import { main } from './main.js';

/** Runs the CLI in-process and captures its output. */
export async function cli(...argv: string[]) {
  let out = '';
  let err = '';
  const code = await main(argv, { out: (t) => (out += t), err: (t) => (err += t) });
  return { code, out, err };
}
