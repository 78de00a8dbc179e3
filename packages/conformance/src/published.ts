// The published results (reports/results.json): what the default matrix found at this commit. The runner reads them
// for what each unit costs, and the audit for the cells it chooses among.
import { access } from 'node:fs/promises';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** `file`, if there is one. */
export async function existing(file: string | undefined): Promise<string | undefined> {
  return file !== undefined && (await access(file).then(() => true, () => false)) ? file : undefined;
}

/** The published results: reports/results.json here, or in the repository this runner is part of. */
export async function publishedResults(): Promise<string | undefined> {
  return (await existing(resolve('reports/results.json'))) ?? existing(fileURLToPath(new URL('../../../reports/results.json', import.meta.url)));
}
