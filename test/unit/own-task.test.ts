import { inTaskOfItsOwn, taskOfItsOwn } from '@/lib/client/own-task';

const nextTimer = () => new Promise((resolve) => setTimeout(resolve, 20));

describe('inTaskOfItsOwn', () => {
  it('runs each job in a task of its own, in the order asked, after the current task', async () => {
    const log: string[] = [];
    inTaskOfItsOwn(() => {
      log.push('job 1');
      // A microtask of job 1 runs before job 2 only if job 2 waits for a task of its own.
      queueMicrotask(() => log.push('job 1, its microtask'));
      inTaskOfItsOwn(() => log.push('job 3, asked for by job 1'));
    });
    inTaskOfItsOwn(() => log.push('job 2'));
    log.push('the current task');
    await nextTimer();
    expect(log).toEqual(['the current task', 'job 1', 'job 1, its microtask', 'job 2', 'job 3, asked for by job 1']);
  });

  it('settles a promise in a task of its own', async () => {
    const log: string[] = [];
    const settled = taskOfItsOwn().then(() => log.push('settled'));
    inTaskOfItsOwn(() => log.push('job after it'));
    await Promise.resolve();
    expect(log).toEqual([]);
    await settled;
    await nextTimer();
    expect(log).toEqual(['settled', 'job after it']);
  });
});
