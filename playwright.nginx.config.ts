import os from 'node:os';
import path from 'node:path';

import { defineConfig, devices } from '@playwright/test';

import { serverEnv } from './playwright.config';
import { E2E_PORT } from './scripts/lib/e2e-env';

/**
 * The smoke run through nginx (e2e/nginx.smoke.ts; docs/operations.md, "nginx in front"): the e2e build
 * and settings (same baked values, so no second build) behind deploy/nginx.conf, with media sent by
 * nginx. Runs after the main suite (npm run test:e2e), on the same app port: never both at once.
 */
const NGINX_PORT = Number(process.env.E2E_NGINX_PORT ?? 3155);
const suffix = E2E_PORT === 3100 ? '' : `-${E2E_PORT}`;
export const NGINX_E2E = {
  origin: `http://127.0.0.1:${NGINX_PORT}`,
  dataDir: path.join(os.tmpdir(), `chrysalis-e2e-nginx-data${suffix}`),
  workDir: path.join(os.tmpdir(), `chrysalis-e2e-nginx${suffix}`),
  /** Small, so the spec can cross it: nginx takes 1 MiB more (the template's rule). */
  maxUploadBytes: 4 * 1024 * 1024,
};

export default defineConfig({
  testDir: './e2e',
  testMatch: /nginx\.smoke\.ts/,
  // Its own folder: the default (test-results/) is emptied when a run starts, and would lose the main run's traces.
  outputDir: 'test-results/nginx',
  workers: 1,
  retries: process.env.CI ? 1 : 0,
  reporter: [
    ['list'],
    ...(process.env.CI ? [] : [['html', { open: 'never', outputFolder: 'playwright-report/nginx' }] as const]),
    ['./e2e/timing-reporter.ts', { outputFile: 'e2e-timing/nginx.json' }],
  ],
  timeout: 60_000,
  use: {
    baseURL: NGINX_E2E.origin,
    trace: process.env.CI ? 'on-first-retry' : 'retain-on-failure',
    ...devices['Desktop Chrome'],
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-background-networking', '--disable-component-update', '--disable-gpu'],
    },
  },
  webServer: {
    command: 'tsx scripts/e2e-nginx-server.ts',
    url: `${NGINX_E2E.origin}/robots.txt`,
    timeout: 600_000,
    reuseExistingServer: false,
    stdout: 'pipe',
    env: {
      ...serverEnv,
      DATA_DIR: NGINX_E2E.dataDir,
      NGINX_PORT: String(NGINX_PORT),
      NGINX_WORK_DIR: NGINX_E2E.workDir,
      MAX_UPLOAD_BYTES: String(NGINX_E2E.maxUploadBytes),
      // What deploy/nginx.conf asks of the app.
      MEDIA_OFFLOAD: 'x-accel',
      TRUST_PROXY: '1',
    },
  },
});
