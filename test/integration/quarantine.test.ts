import { mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { STALE_UPLOAD_MS, sweepQuarantine } from '@/lib/server/videos/quarantine';

import { ORIGIN } from '../helpers/api';

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'chrysalis-quarantine-'));
process.env.SITE_URL = ORIGIN;
process.env.DATA_DIR = dataDir;
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe('the quarantine sweep', () => {
  const quarantine = path.join(dataDir, 'quarantine');

  it('removes what an upload cut off by a killed server left, and keeps uploads still being written', async () => {
    mkdirSync(quarantine, { recursive: true });
    // A server killed mid-upload leaves its partial file behind, untouched since.
    const abandoned = path.join(quarantine, 'dead.upload');
    writeFileSync(abandoned, Buffer.alloc(4096, 1));
    const longAgo = new Date(Date.now() - STALE_UPLOAD_MS - 60_000);
    utimesSync(abandoned, longAgo, longAgo);
    // Another process is writing this one right now.
    const active = path.join(quarantine, 'live.upload');
    writeFileSync(active, Buffer.alloc(1024, 2));

    expect(await sweepQuarantine()).toBe(1);
    expect(readdirSync(quarantine)).toEqual(['live.upload']);
  });

  it('is a no-op when no upload ever happened', async () => {
    rmSync(quarantine, { recursive: true, force: true });
    expect(await sweepQuarantine()).toBe(0);
  });
});
