#!/usr/bin/env node
import { main } from './main.js';

// A reader that stops early (`| head`) closes the pipe: stop quietly, as other command-line tools do. Results are
// already on disk by then; only the printing stops.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw error;
  });
}

const code = await main(process.argv.slice(2), {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
});
process.exitCode = code;
