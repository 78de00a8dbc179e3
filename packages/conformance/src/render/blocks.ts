// A page as a few kinds of block, written once and drawn by either format: the index reads the same in Markdown and
// HTML because both draw these blocks. Inline text is made by the format's `Inline`, which escapes what it is given.
import type { ResultCell } from '../results.js';
import { reproDir } from '../repro/index.js';
import { esc, md, urlPart } from './escape.js';
import { anchor, storyPath } from './story-text.js';

export interface Inline {
  /** Text from anywhere, escaped for the format. */
  text(text: string): string;
  code(text: string): string;
  strong(inline: string): string;
  link(inline: string, href: string, title?: string): string;
  readonly br: string;
  /** A counterexample's story (and, in HTML, its diagram), from the reports' folder. */
  storyHref(cell: Pick<ResultCell, 'framework' | 'version' | 'wiring' | 'store' | 'scenario' | 'property'>): string;
  /** A framework's page, from the reports' folder. */
  pageHref(framework: string): string;
  /** A failing cell's standalone reproduction (its README), from the reports' folder. */
  reproHref(cell: Pick<ResultCell, 'framework' | 'version' | 'wiring' | 'store' | 'scenario'>): string;
  /** The reports' index, from their folder. */
  readonly indexHref: string;
}

/** A table cell: inline text, or inline text with a class (HTML colours `pass`, `fail`, ...). */
export type Cell = string | { readonly inline: string; readonly className: string };
const cellInline = (c: Cell) => (typeof c === 'string' ? c : c.inline);

/** A list item, with a list of its own under it. */
export type Item = string | { readonly inline: string; readonly items: readonly string[] };

export type Block =
  | { readonly kind: 'h'; readonly level: 2 | 3; readonly text: string; readonly id?: string }
  | { readonly kind: 'p'; readonly inline: string }
  | { readonly kind: 'ul'; readonly items: readonly Item[] }
  | { readonly kind: 'table'; readonly head: readonly string[]; readonly rows: readonly (readonly Cell[])[]; readonly className?: string }
  | { readonly kind: 'details'; readonly summary: string; readonly blocks: readonly Block[] };

// Where a story is (its file and anchor) is story-text.ts's, which the standalone reproductions' READMEs link too.
export { anchor };

/** A link target in Markdown: no space or parenthesis may end it early. */
const mdHref = (href: string) => href.replace(/[ ()]/g, (ch) => encodeURIComponent(ch).replace('(', '%28').replace(')', '%29'));

export const MARKDOWN: Inline = {
  text: md,
  code: (text) => `\`${text.replace(/`/g, "'").replace(/\|/g, '\\|')}\``,
  strong: (inline) => `**${inline}**`,
  link: (inline, href) => `[${inline}](${mdHref(href)})`,
  br: '<br>',
  storyHref: storyPath,
  pageHref: (framework) => `${urlPart(framework)}.md`,
  reproHref: (c) => `repro/${urlPart(reproDir(c))}/README.md`,
  indexHref: 'README.md',
};

export const HTML: Inline = {
  text: esc,
  code: (text) => `<code>${esc(text)}</code>`,
  strong: (inline) => `<strong>${inline}</strong>`,
  link: (inline, href, title) => `<a href="${esc(href)}"${title ? ` title="${esc(title)}"` : ''}>${inline}</a>`,
  br: '<br>',
  storyHref: (c) => `html/${urlPart(c.framework)}@${urlPart(c.version)}.html#${anchor(c)}`,
  pageHref: (framework) => `${urlPart(framework)}.html`,
  reproHref: (c) => `repro/${urlPart(reproDir(c))}/README.md`,
  indexHref: 'index.html',
};

/** The links of a format into the reports of a run published in `folder` under the reports' folder ('/' between parts). */
export function within(f: Inline, folder: string): Inline {
  const at = `${folder.split('/').map(urlPart).join('/')}/`;
  return {
    ...f,
    storyHref: (c) => at + f.storyHref(c),
    pageHref: (framework) => at + f.pageHref(framework),
    reproHref: (c) => at + f.reproHref(c),
    indexHref: at + f.indexHref,
  };
}

const slug = (text: string) => text.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');

export function markdownBlocks(blocks: readonly Block[]): string {
  return blocks
    .map((b): string => {
      switch (b.kind) {
        case 'h':
          return `${'#'.repeat(b.level)} ${md(b.text)}`;
        case 'p':
          return b.inline;
        case 'ul':
          return b.items.map((i) => (typeof i === 'string' ? `- ${i}` : [`- ${i.inline}`, ...i.items.map((x) => `  - ${x}`)].join('\n'))).join('\n');
        case 'table':
          return [`| ${b.head.join(' | ')} |`, `|${b.head.map(() => '---|').join('')}`, ...b.rows.map((r) => `| ${r.map(cellInline).join(' | ')} |`)].join('\n');
        case 'details':
          return `<details><summary>${esc(b.summary)}</summary>\n\n${markdownBlocks(b.blocks)}\n</details>`;
      }
    })
    .join('\n\n');
}

export function htmlBlocks(blocks: readonly Block[]): string {
  return blocks
    .map((b): string => {
      switch (b.kind) {
        case 'h':
          return `<h${b.level} id="${esc(b.id ?? slug(b.text))}">${esc(b.text)}</h${b.level}>`;
        case 'p':
          return `<p>${b.inline}</p>`;
        case 'ul':
          return `<ul>\n${b.items.map((i) => (typeof i === 'string' ? `<li>${i}</li>` : `<li>${i.inline}<ul>${i.items.map((x) => `<li>${x}</li>`).join('')}</ul></li>`)).join('\n')}\n</ul>`;
        case 'table':
          // A table wider than the window scrolls in its own box, not the page.
          return (
            `<div class="wide"><table${b.className ? ` class="${esc(b.className)}"` : ''}><tr>${b.head.map((h) => `<th>${h}</th>`).join('')}</tr>\n` +
            b.rows.map((r) => `<tr>${r.map((c) => (typeof c === 'string' ? `<td>${c}</td>` : `<td class="${esc(c.className)}">${c.inline}</td>`)).join('')}</tr>`).join('\n') +
            '</table></div>'
          );
        case 'details':
          return `<details><summary>${esc(b.summary)}</summary>\n${htmlBlocks(b.blocks)}\n</details>`;
      }
    })
    .join('\n');
}
