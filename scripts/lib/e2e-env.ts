import os from 'node:os';
import path from 'node:path';

/**
 * Where the e2e server listens and keeps its data. E2E_PORT lets two
 * checkouts (git worktrees) run their suites side by side.
 */
export const E2E_PORT = Number(process.env.E2E_PORT ?? 3100);
export const ORIGIN = `http://127.0.0.1:${E2E_PORT}`;
export const E2E_DATA_DIR = path.join(os.tmpdir(), E2E_PORT === 3100 ? 'chrysalis-e2e-data' : `chrysalis-e2e-data-${E2E_PORT}`);

/** The Verotel account the e2e server runs with (no real shop: tests sign postbacks with this key, and intercept Verotel's pages). */
export const E2E_VEROTEL = { shopId: '777001', signatureKey: 'e2e-verotel-signature-key-2026' };

/** Everything the e2e server writes (scripts/e2e-server.ts), searched for secrets after the run (e2e/global-teardown.ts). */
export const E2E_LOG_FILE = path.join(E2E_DATA_DIR, 'server.log');
/** Secrets the e2e helpers made (passwords, tokens, emails, two-factor secrets), one per line: none may show in E2E_LOG_FILE. */
export const E2E_SECRETS_FILE = path.join(E2E_DATA_DIR, 'e2e-secrets.txt');
/** The e2e server's METRICS_TOKEN (e2e/metrics.spec.ts). */
export const E2E_METRICS_TOKEN = 'e2e-metrics-token-2026-0123456789';
