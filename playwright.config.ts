import { defineConfig, devices } from '@playwright/test';

import { E2E_DATA_DIR, E2E_LOG_FILE, E2E_METRICS_TOKEN, E2E_PORT, E2E_VEROTEL, ORIGIN } from './scripts/lib/e2e-env';

const PORT = E2E_PORT;
const baseURL = ORIGIN;

// The e2e server is built with these settings baked in (see scripts/lib/build.ts).
export const serverEnv = {
  PORT: String(PORT),
  SITE_URL: baseURL,
  DATA_DIR: E2E_DATA_DIR,
  // Empty-state tests need an empty site: no demo videos (docs/configuration.md, SEED_DEMO).
  SEED_DEMO: '0',
  SITE_NAME: 'Chrysalis',
  // Regional blocking is exercised by e2e/geo.spec.ts through the CDN headers.
  GEO_BLOCKED_REGIONS: 'GB,US-TX',
  // The first-admin bootstrap (docs/configuration.md): e2e/admin-moderation.spec.ts logs in as this account.
  ADMIN_USERNAME: 'e2e_admin',
  ADMIN_EMAIL: 'admin@e2e.example.org',
  ADMIN_PASSWORD: 'moderate-orchid-velvet-2026',
  // VIP payments (e2e/subscribe.spec.ts): checkout URLs go to Verotel's default host, which the tests intercept; postbacks are signed with this key.
  VEROTEL_SHOP_ID: E2E_VEROTEL.shopId,
  VEROTEL_SIGNATURE_KEY: E2E_VEROTEL.signatureKey,
  // Playwright stands in for one trusted proxy: the X-Forwarded-For each test sends (e2e/fixtures.ts, e2e/api.ts) is its client address, so per-address limits apply per test.
  TRUST_PROXY: '1',
  // Identity documents are sealed with this key (production refuses verification without one): e2e/verification.spec.ts and every verifiedMember().
  // Identity documents and performer releases are sealed with this key; production refuses them without one (decision 013).
  VERIFICATION_KEY: 'e2e0'.repeat(16),
  // Urgent notices mail an alert here (e2e/notices.spec.ts; decision 016).
  ADMIN_ALERT_EMAIL: 'alerts@e2e.example.org',
  // /metrics answers with this bearer token (e2e/metrics.spec.ts).
  METRICS_TOKEN: E2E_METRICS_TOKEN,
  // Files from 1 MiB on go through tus (e2e/resumable-upload.spec.ts); the other upload tests' clips stay below it (decision 026).
  RESUMABLE_UPLOAD_THRESHOLD_BYTES: String(1024 * 1024),
  // The server's output also goes here; e2e/global-teardown.ts fails the run if a secret shows in it.
  E2E_LOG_FILE,
};

const chromium = {
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-background-networking', '--disable-component-update', '--disable-gpu'],
};

export default defineConfig({
  testDir: './e2e',
  fullyParallel: true,
  workers: 2,
  retries: process.env.CI ? 1 : 0,
  // Every run prints where its time went and keeps it in e2e-timing/ (e2e/timing-reporter.ts, decision 048).
  reporter: [
    ['list'],
    ...(process.env.CI ? [] : [['html', { open: 'never' }] as const]),
    ['./e2e/timing-reporter.ts', { outputFile: 'e2e-timing/main.json' }],
  ],
  timeout: 30_000,
  // Fifteen seconds for an expectation to come true (Playwright's default is five): the run shares two cores
  // between two browsers, the server and its ffmpeg jobs, and on a slow machine at a load average of ten a
  // reloaded video page asked for the member's like 8.1 s after its HTML arrived (hydration waiting for the
  // CPU). What the tests check is behaviour; speed is measured by the benchmarks (bench:*).
  expect: { timeout: 15_000 },
  // Enrols the bootstrap admin in two-factor once the server is up (e2e/global-setup.ts).
  globalSetup: './e2e/global-setup.ts',
  // Searches the server's log of the whole run for the passwords, tokens and emails the tests used.
  globalTeardown: './e2e/global-teardown.ts',
  use: {
    baseURL,
    // Recording a trace costs about 30 % of the run's CPU (screencast frames and DOM snapshots of every action, kept
    // or not): measured on five specs, 282 → 198 CPU-seconds and 148 → 106 s (decision 048). In CI a test that fails
    // runs once more with its trace on, so every failure still leaves a trace; a developer's run keeps one per failure.
    trace: process.env.CI ? 'on-first-retry' : 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: chromium,
  },
  projects: [
    // The server starts with an empty site; what an empty site shows is checked before any test uploads videos.
    {
      name: 'empty-site',
      testMatch: /empty-site\.spec\.ts/,
      use: { ...devices['Desktop Chrome'], viewport: { width: 1280, height: 800 }, launchOptions: chromium },
    },
    {
      name: 'desktop',
      dependencies: ['empty-site'],
      testIgnore: /empty-site\.spec\.ts/,
      use: { ...devices['Desktop Chrome'], viewport: { width: 1280, height: 800 }, launchOptions: chromium },
      grepInvert: /@mobile-only/,
    },
    // 375 px runs only what the width changes (decision 048): a test tagged @mobile (run at both widths) or
    // @mobile-only checks layout (no sideways scroll, sizes, what a narrow screen shows), takes the narrow
    // screen's own way (the Menu panel), or keeps screenshots at both widths for review. Behaviour alone runs at 1280.
    {
      name: 'mobile',
      dependencies: ['empty-site'],
      testIgnore: /empty-site\.spec\.ts/,
      use: { ...devices['Desktop Chrome'], viewport: { width: 375, height: 740 }, isMobile: false, launchOptions: chromium },
      grep: /@mobile/,
    },
  ],
  webServer: {
    command: 'tsx scripts/e2e-server.ts',
    url: `${baseURL}/robots.txt`,
    timeout: 600_000,
    reuseExistingServer: false,
    env: serverEnv,
    stdout: 'pipe',
  },
});
