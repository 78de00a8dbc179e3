// Writes the reports of a run into a folder: the index, a page per framework and the stories per version, each in
// Markdown and in HTML.
// (results.json is the journal's, written as the run goes.)
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { frameworkHtml, htmlStoriesFile, indexHtml, storiesHtml } from './html.js';
import { frameworkPage, indexPage, storiesFile, storiesPage, type ReportInput } from './markdown.js';

async function write(file: string, text: string) {
  await mkdir(join(file, '..'), { recursive: true });
  await writeFile(file, text);
  return file;
}

export interface ReportMeta {
  readonly environment?: { suite: string; node: string; os: string; arch: string; cpus: number };
  readonly updated?: string;
  /** The results file the reports link to, relative to the reports' folder. */
  readonly resultsName?: string;
}

export async function writeReports(dir: string, input: ReportInput, meta: ReportMeta = {}): Promise<string[]> {
  const env = meta.environment;
  const data = meta.resultsName ?? 'results.json';
  const environment = env
    ? `Suite ${env.suite}, Node ${env.node}, ${env.os} (${env.arch}, ${env.cpus} cores)${meta.updated ? `, last cell written ${meta.updated}` : ''}. Raw data: [${data}](${data}).`
    : `Raw data: [${data}](${data}).`;
  const plain = environment.replace(`[${data}](${data})`, data);
  const written = [
    await write(join(dir, 'README.md'), indexPage(input, environment)),
    await write(join(dir, 'index.html'), indexHtml(input, plain)),
  ];
  for (const framework of [...new Set(input.targets.map((t) => t.framework))]) {
    written.push(await write(join(dir, `${framework}.md`), frameworkPage(framework, input)));
    written.push(await write(join(dir, `${framework}.html`), frameworkHtml(framework, input)));
  }
  for (const target of input.targets) {
    if (input.cells.some((c) => c.framework === target.framework && c.version === target.version && c.counterexample)) {
      written.push(await write(join(dir, storiesFile(target.framework, target.version)), storiesPage(target, input.cells)));
      written.push(await write(join(dir, htmlStoriesFile(target.framework, target.version)), storiesHtml(target, input.cells)));
    }
  }
  return written;
}
