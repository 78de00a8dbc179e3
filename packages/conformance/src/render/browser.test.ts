// The HTML report as a reader gets it, in headless Chromium: it loads nothing from the network, it can be screenshot,
// and a keyboard alone reaches a failure's sequence diagram from the top of the index. Chromium is Debian's
// (/usr/bin/chromium, or $CHROMIUM); CI installs it, and without it these tests are skipped with the reason.
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type Browser } from 'playwright-core';
import { cell, failing, results } from '../results.fixtures.js';
import { cli } from '../run-io.fixtures.js';

const executable = process.env['CHROMIUM'] ?? '/usr/bin/chromium';
const missing = existsSync(executable) ? undefined : `no Chromium at ${executable} (apt-get install chromium, or set CHROMIUM)`;
if (missing) process.stderr.write(`browser.test.ts skipped: ${missing}\n`);

describe.skipIf(missing !== undefined)('the HTML report in headless Chromium', () => {
  let browser: Browser;
  let dir: string;

  beforeAll(async () => {
    browser = await chromium.launch({
      executablePath: executable,
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
    dir = await mkdtemp(join(tmpdir(), 'ac-browser-'));
    const file = join(dir, 'results.json');
    const wirings = [{ id: 'native-approval', description: 'the docs', docsDefault: true as const }];
    const data = results([failing('7.0.0'), cell({ version: '7.0.0', verdict: 'pass', scenario: 'replay' })]);
    await writeFile(file, JSON.stringify({ ...data, targets: data.targets!.map((t) => ({ ...t, wirings })) }));
    await mkdir(join(dir, 'metadata'));
    await writeFile(join(dir, 'metadata', 'ai.yml'), '- scenario: double-resume\n  link: https://example.org/issue\n  note: A tracked gap.\n');
    expect((await cli('report', file)).code).toBe(0);
  });

  afterAll(async () => {
    await browser?.close();
  });

  it("the published index shows the one-minute answer's headline and grid in the first screen at 1400×900", async () => {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    await page.goto(pathToFileURL(fileURLToPath(new URL('../../../../reports/index.html', import.meta.url))).href);
    await page.screenshot({ path: join(dir, 'answer.png') });
    const headline = page.locator('#answer + p');
    expect(await headline.innerText()).toMatch(/^Of the \d+ frameworks here, at their newest version, /);
    const grid = await page.locator('table.summary').boundingBox();
    const top = await headline.boundingBox();
    // The headline and the grid's head and first rows are on the first screen, and the grid is no wider than it.
    expect(top!.y + top!.height).toBeLessThan(900);
    expect(grid!.y).toBeLessThan(700);
    expect(grid!.x + grid!.width).toBeLessThanOrEqual(1400);
    // No table makes the page itself scroll sideways: a wide one scrolls in its own box.
    expect(Number(await page.evaluate('document.documentElement.scrollWidth'))).toBeLessThanOrEqual(1400);
    await page.goto(pathToFileURL(fileURLToPath(new URL('../../../../reports/langgraph.html', import.meta.url))).href);
    expect(Number(await page.evaluate('document.documentElement.scrollWidth'))).toBeLessThanOrEqual(1400);
    expect(await page.locator('#not-run + ul li').count()).toBeGreaterThan(0);
  });

  it('loads nothing from the network, and a keyboard reaches the failure diagram from the top', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const requests: string[] = [];
    page.on('request', (r) => void (r.url().startsWith('file:') || requests.push(r.url())));
    await page.goto(pathToFileURL(join(dir, 'index.html')).href);
    const shot = join(dir, 'index.png');
    await page.screenshot({ path: shot, fullPage: true });
    expect((await stat(shot)).size).toBeGreaterThan(10_000);

    // Tab from the top until a link to a counterexample's diagram has the focus, then follow it.
    let href = '';
    for (let i = 0; i < 40 && !href.includes('html/ai@7.0.0.html#'); i++) {
      await page.keyboard.press('Tab');
      href = (await page.locator(':focus').getAttribute('href').catch(() => null)) ?? '';
    }
    expect(href).toBe('html/ai@7.0.0.html#native-approval-memory-double-resume-at-most-once');
    await Promise.all([page.waitForURL(/#native-approval-memory-double-resume-at-most-once$/), page.keyboard.press('Enter')]);
    const diagram = page.locator('section#native-approval-memory-double-resume-at-most-once svg.sequence');
    await expect(diagram.count()).resolves.toBe(1);
    expect(await diagram.isVisible()).toBe(true);
    await page.screenshot({ path: join(dir, 'diagram.png') });
    expect(requests).toEqual([]);
  });
});
