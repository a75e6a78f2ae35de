/**
 * npm run screenshots -- [base URL] [out dir]
 * Full-page screenshots of the main pages (and the newest video's page) at
 * 1280 px and 375 px in Debian's Chromium, with and without the age gate,
 * for looking at what people see. A full-page capture does not scroll, so
 * it renders the parts that wait for the viewport (content-visibility: auto,
 * decision 034) first: what a person sees as they scroll down.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';

import { chromium } from '@playwright/test';

const base = process.argv[2] ?? 'http://localhost:3000';
const outDir = process.argv[3] ?? 'test-results/screenshots';
/** Renders what waits for the viewport, as scrolling to it would. */
const RENDER_ALL = '* { content-visibility: visible !important; }';
const PAGES = [
  '/',
  '/category/Sissy',
  '/search?q=sissy',
  '/upload',
  '/subscribe',
  '/community-standards',
  '/cookie-policy',
  '/lgbtq-support',
  '/missing-page',
];

/** The newest public video's page, when there is one (the demo content gives twelve). */
async function videoPage(): Promise<string[]> {
  const answer = await fetch(`${base}/api/videos?limit=1`).catch(() => null);
  if (!answer?.ok) return [];
  const { videos } = (await answer.json()) as { videos: { streamVideoId: string }[] };
  return videos[0] ? [`/video/${videos[0].streamVideoId}`] : [];
}

async function main() {
  mkdirSync(outDir, { recursive: true });
  const pages = [...PAGES, ...(await videoPage())];
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-background-networking', '--disable-component-update', '--disable-gpu'],
  });
  for (const width of [1280, 375]) {
    const gated = await browser.newPage({ viewport: { width, height: 800 } });
    await gated.goto(base);
    await gated.screenshot({ path: path.join(outDir, `age-gate-${width}.png`) });
    await gated.close();

    // bypassCSP: the site's policy (rightly) refuses the style tag RENDER_ALL adds.
    const context = await browser.newContext({ viewport: { width, height: 800 }, bypassCSP: true });
    await context.addInitScript(() => window.sessionStorage.setItem('chrysalis.ageConfirmed', 'true'));
    const page = await context.newPage();
    for (const pathname of pages) {
      // networkidle: a 404 page is drawn in the browser (its shell's code arrives after `load`).
      await page.goto(`${base}${pathname}`, { waitUntil: 'networkidle' });
      const name = pathname.replace(/[^a-z0-9]+/gi, '-').replace(/^-|-$/g, '') || 'home';
      await page.addStyleTag({ content: RENDER_ALL });
      await page.screenshot({ path: path.join(outDir, `${name}-${width}.png`), fullPage: true });
    }
    if (width === 375) {
      await page.goto(base);
      await page.getByRole('button', { name: 'Menu' }).click();
      await page.screenshot({ path: path.join(outDir, `mobile-menu-${width}.png`) });
    } else {
      await page.goto(base);
      await page.getByRole('button', { name: 'Categories' }).first().click();
      await page.screenshot({ path: path.join(outDir, `categories-open-${width}.png`) });
    }
    await context.close();
  }
  await browser.close();
  console.log(`screenshots in ${outDir}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
