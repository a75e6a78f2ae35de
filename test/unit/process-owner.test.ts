import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';

import { isProcessAlive, ownerIsGone, ownerTag } from '@/lib/process-owner';

/** A zombie: `sleep 0.3` exits under a parent (exec'd `sleep 5`) that never waits for it. Resolves to its pid. */
function makeZombie(): Promise<{ pid: number; stop: () => void }> {
  return new Promise((resolve, reject) => {
    const parent = spawn('sh', ['-c', 'sleep 0.3 & echo $!; exec sleep 5'], { stdio: ['ignore', 'pipe', 'ignore'] });
    parent.on('error', reject);
    parent.stdout.once('data', (chunk: Buffer) =>
      resolve({ pid: Number(chunk.toString().trim()), stop: () => parent.kill('SIGKILL') }),
    );
  });
}

const stateOf = (pid: number) => {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0];
};

describe('process owner tags', () => {
  it('a live process is alive and its tag is not gone', () => {
    expect(isProcessAlive(process.pid)).toBe(true);
    expect(ownerIsGone(ownerTag())).toBe(false);
  });

  it('a killed process not yet reaped (a zombie) counts as gone, so a restarted server can take its lock at once', async () => {
    const zombie = await makeZombie();
    try {
      const deadline = Date.now() + 5_000;
      while (stateOf(zombie.pid) !== 'Z' && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
      expect(stateOf(zombie.pid)).toBe('Z');
      expect(isProcessAlive(zombie.pid)).toBe(false);
      expect(ownerIsGone(ownerTag(zombie.pid))).toBe(true);
    } finally {
      zombie.stop();
    }
  });
});
