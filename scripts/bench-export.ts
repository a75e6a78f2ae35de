/**
 * `npm run bench:export [-- --files 3 --mb 100]`: writes a data-export ZIP of
 * a few large originals through the same code the build-data-export job uses
 * (lib/server/exports/zip.ts, local media storage in a temp folder) and
 * samples the process's RSS every 10 ms. Peak memory should not grow with the
 * size of the originals: yazl pipes one file at a time with backpressure.
 */
import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { once } from 'node:events';

import { writeZip } from '@/lib/server/exports/zip';
import { LocalMediaStorage } from '@/lib/server/storage/local';

const arg = (name: string, fallback: number) => {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 ? Number(process.argv[at + 1]) : fallback;
};
const MiB = 1024 * 1024;

async function writeOriginal(file: string, bytes: number): Promise<void> {
  const chunk = randomBytes(MiB);
  const out = createWriteStream(file);
  for (let written = 0; written < bytes; written += MiB) {
    if (!out.write(chunk)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
}

async function main() {
  const files = arg('files', 3);
  const mb = arg('mb', 100);
  const dir = await mkdtemp(path.join(os.tmpdir(), 'chrysalis-bench-export-'));
  try {
    const storage = new LocalMediaStorage(dir);
    await mkdir(path.join(storage.root, 'originals'), { recursive: true });
    const stored = [];
    for (let i = 0; i < files; i++) {
      const key = `originals/bench-${i}.mp4`;
      await writeOriginal(storage.pathOf(key), mb * MiB);
      stored.push({ path: `videos/v${i}/original.mp4`, key, size: mb * MiB });
    }
    global.gc?.();
    const baseline = process.memoryUsage().rss;
    let peak = baseline;
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().rss);
    }, 10);
    const started = performance.now();
    const target = path.join(dir, 'export.zip');
    await writeZip(
      target,
      { buffers: [{ path: 'README.txt', data: Buffer.from('bench\n') }], stored },
      storage,
      new AbortController().signal,
    );
    const seconds = (performance.now() - started) / 1000;
    clearInterval(sampler);
    const size = (await stat(target)).size;
    console.log(
      `originals: ${files} × ${mb} MiB = ${files * mb} MiB; ZIP ${(size / MiB).toFixed(1)} MiB in ${seconds.toFixed(1)} s`,
    );
    console.log(
      `RSS before: ${(baseline / MiB).toFixed(1)} MiB, peak while writing: ${(peak / MiB).toFixed(1)} MiB, growth: ${((peak - baseline) / MiB).toFixed(1)} MiB`,
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
