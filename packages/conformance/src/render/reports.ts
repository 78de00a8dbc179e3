// Writes the reports of a run into a folder: the Markdown index, a page per framework, the stories per version.
// (results.json is the journal's, written as the run goes.)
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { frameworkPage, indexPage, storiesFile, storiesPage, type ReportInput } from './markdown.js';

async function write(file: string, text: string) {
  await mkdir(join(file, '..'), { recursive: true });
  await writeFile(file, text);
  return file;
}

export async function writeReports(dir: string, input: ReportInput): Promise<string[]> {
  const results = JSON.parse(await readFile(join(dir, 'results.json'), 'utf8').catch(() => '{}')) as {
    environment?: { suite: string; node: string; os: string; arch: string; cpus: number };
    updated?: string;
  };
  const env = results.environment;
  const environment = env
    ? `Suite ${env.suite}, Node ${env.node}, ${env.os} (${env.arch}, ${env.cpus} cores)${results.updated ? `, last cell written ${results.updated}` : ''}. Raw data: [results.json](results.json).`
    : 'Raw data: [results.json](results.json).';
  const written = [await write(join(dir, 'README.md'), indexPage(input, environment))];
  for (const framework of [...new Set(input.targets.map((t) => t.framework))]) {
    written.push(await write(join(dir, `${framework}.md`), frameworkPage(framework, input)));
  }
  for (const target of input.targets) {
    if (input.cells.some((c) => c.framework === target.framework && c.version === target.version && c.counterexample)) {
      written.push(await write(join(dir, storiesFile(target.framework, target.version)), storiesPage(target, input.cells)));
    }
  }
  return written;
}
