/**
 * One Lighthouse run, for scripts/bench-lighthouse.ts, in plain Node: under
 * tsx, the functions Lighthouse sends into the page are compiled with
 * esbuild's name helper (`__name`), which the page does not have.
 *
 * node scripts/lib/lighthouse-audit.mjs '{"url","chromePort","storageKey","reportPath"?}'
 * prints {scores, metrics, benchmarkIndex, paintAudits} (scores 0–100, metrics by audit id,
 * Lighthouse's measure of this machine's CPU speed during the run, and the `metrics` and `network-requests`
 * audits that scripts-before-paint.ts reads) as JSON.
 */
import { writeFileSync } from 'node:fs';

import lighthouse from 'lighthouse';
import puppeteer from 'puppeteer-core';

const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'];
const METRICS = [
  'largest-contentful-paint',
  'total-blocking-time',
  'cumulative-layout-shift',
  'first-contentful-paint',
  'speed-index',
];

const { url, chromePort, storageKey, reportPath } = JSON.parse(process.argv[2]);
const browser = await puppeteer.connect({ browserURL: `http://127.0.0.1:${chromePort}`, defaultViewport: null });
try {
  const page = await browser.newPage();
  // A returning visitor: the age gate was confirmed earlier this session (sessionStorage), so its boot script hides it before first paint.
  await page.evaluateOnNewDocument(`try { sessionStorage.setItem(${JSON.stringify(storageKey)}, 'true') } catch {}`);
  const result = await lighthouse(
    url,
    { port: chromePort, output: 'json', logLevel: 'error', onlyCategories: CATEGORIES },
    undefined,
    page,
  );
  if (!result) throw new Error(`lighthouse gave no result for ${url}`);
  const { lhr } = result;
  if (lhr.runtimeError) throw new Error(`${url}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
  if (reportPath) writeFileSync(reportPath, JSON.stringify(lhr, null, 1));
  await page.close();
  const scores = Object.fromEntries(CATEGORIES.map((id) => [id, Math.round((lhr.categories[id]?.score ?? 0) * 100)]));
  const metrics = Object.fromEntries(METRICS.map((id) => [id, lhr.audits[id]?.numericValue ?? null]));
  process.stdout.write(
    JSON.stringify({
      scores,
      metrics,
      benchmarkIndex: lhr.environment.benchmarkIndex,
      paintAudits: { metrics: lhr.audits.metrics, 'network-requests': lhr.audits['network-requests'] },
    }),
  );
} finally {
  await browser.disconnect();
}
