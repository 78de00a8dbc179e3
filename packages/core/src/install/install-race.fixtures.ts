// A process for lock.test.ts: installs cache entry ENTRY into $APPROVAL_CONFORMANCE_CACHE through installIsolated,
// with a fake installer instead of npm, and reports to the test over IPC. The fake writes PARTS files one at a time,
// yielding between them, and appends its pid to $INSTALL_LOG when it is done. With `hold`, it stops after the third
// file, says `installing` and waits for the test's `continue`; with `race`, it says `ready` and waits for the test's
// `go` before it starts, so that two of them start together. The shim it installs reads the entry when imported and
// exports whether every part was there, whole: what the process that loads it saw.
//
//   node --import tsx --conditions=@approval-conformance/source install-race.fixtures.ts ENTRY hold|race|free
import { appendFile, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { installIsolated } from './npm.js';

export const PARTS = 100;

export type FromChild =
  | { readonly type: 'log'; readonly line: string }
  | { readonly type: 'installing' }
  | { readonly type: 'ready' }
  | { readonly type: 'loaded'; readonly dir: string; readonly complete: boolean; readonly parts: number; readonly installedBy: number }
  | { readonly type: 'failed'; readonly message: string };

const SHIM = `import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
const dir = fileURLToPath(new URL('.', import.meta.url));
const names = readdirSync(dir + 'parts').sort();
export { dir };
export const parts = names.length;
export const complete = names.length === ${PARTS} &&
  names.every((name, i) => name === 'part-' + String(i).padStart(3, '0') && readFileSync(dir + 'parts/' + name, 'utf8') === 'part ' + i + ' of ${PARTS}\\n');
export const installedBy = JSON.parse(readFileSync(dir + 'ready.json', 'utf8')).installedBy;
`;

const send = (message: FromChild) => new Promise<void>((resolve) => process.send!(message, () => resolve()));
const told = (what: string) =>
  new Promise<void>((resolve) => {
    const listener = (message: unknown) => {
      if (message !== what) return;
      process.off('message', listener);
      resolve();
    };
    process.on('message', listener);
  });

async function main(): Promise<void> {
  const [entry, mode] = process.argv.slice(2);
  if (!entry || (mode !== 'hold' && mode !== 'race' && mode !== 'free')) throw new Error('usage: install-race.fixtures.ts ENTRY hold|race|free');
  const log = process.env['INSTALL_LOG'];
  if (!log) throw new Error('INSTALL_LOG is not set');
  if (mode === 'race') {
    const go = told('go');
    await send({ type: 'ready' });
    await go;
  }
  try {
    const lib = await installIsolated<{ dir: string; complete: boolean; parts: number; installedBy: number }>(
      {
        folder: entry,
        what: `${entry} (fake)`,
        manifest: {},
        shim: SHIM,
        ready: { installedBy: process.pid },
        install: async (dir) => {
          await mkdir(join(dir, 'parts'));
          for (let i = 0; i < PARTS; i++) {
            await writeFile(join(dir, 'parts', `part-${String(i).padStart(3, '0')}`), `part ${i} of ${PARTS}\n`);
            if (i === 2 && mode === 'hold') {
              const go = told('continue');
              await send({ type: 'installing' });
              await go;
            }
            await new Promise((resolve) => setImmediate(resolve));
          }
          await appendFile(log, `${entry} ${process.pid}\n`);
        },
      },
      (line) => void send({ type: 'log', line }),
    );
    await send({ type: 'loaded', dir: lib.dir, complete: lib.complete, parts: lib.parts, installedBy: lib.installedBy });
  } catch (error) {
    await send({ type: 'failed', message: String((error as Error).stack ?? error) });
  }
  process.disconnect();
}

await main();
