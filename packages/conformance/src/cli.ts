#!/usr/bin/env node
import { main } from './main.js';
import { terminalIo } from './terminal.js';

// A reader that stops early (`| head`) closes the pipe. Then the output just stops: the command still runs to its
// end (a run still writes its results and reports) and exits with its own code.
const closed = new Set<NodeJS.WriteStream>();
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
    closed.add(stream);
  });
}
const write = (stream: NodeJS.WriteStream) => (text: string) => {
  if (!closed.has(stream)) stream.write(text);
};

const io = { out: write(process.stdout), err: write(process.stderr) };
// On a terminal, a run's progress is one line that updates in place (see terminal.ts); elsewhere, whole lines.
process.exitCode = await main(process.argv.slice(2), process.stderr.isTTY ? terminalIo(io, () => process.stderr.columns) : io);
