import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import type { FullConfig, FullResult, Reporter, Suite, TestCase, TestResult } from '@playwright/test/reporter';

/**
 * Where an e2e run's time goes (issue 34: CI in at most 25 minutes, decision 048): printed at the end of every
 * run, passed or failed, and written as JSON so two runs can be compared. "Setup" is what happens before the
 * first test can start (the build when it is stale, the server's start, e2e/global-setup.ts): the run's start
 * time (FullResult.startTime) is taken before Playwright starts its web server, and onBegin is called after global setup.
 */
interface Options {
  /** The JSON record of the run, relative to the working directory (default e2e-timing/run.json, as from `--reporter`). */
  outputFile?: string;
  /** How many of the slowest tests and files to print. */
  top?: number;
}

interface TimedTest {
  project: string;
  file: string;
  title: string;
  status: TestResult['status'];
  /** More than one when a retry ran: the retries' time is in durationMs too. */
  attempts: number;
  durationMs: number;
}

const seconds = (ms: number) =>
  ms >= 60_000
    ? `${Math.floor(ms / 60_000)}m${String(Math.round((ms % 60_000) / 1000)).padStart(2, '0')}s`
    : `${(ms / 1000).toFixed(1)}s`;

/** Test time summed by key (a project, a file), largest first. */
function sumBy(items: TimedTest[], key: (item: TimedTest) => string): [string, { count: number; ms: number }][] {
  const sums = new Map<string, { count: number; ms: number }>();
  for (const item of items) {
    const sum = sums.get(key(item)) ?? { count: 0, ms: 0 };
    sum.count += 1;
    sum.ms += item.durationMs;
    sums.set(key(item), sum);
  }
  return [...sums].sort((a, b) => b[1].ms - a[1].ms);
}

export default class TimingReporter implements Reporter {
  private begunAt = 0;
  private workers = 1;
  private rootDir = process.cwd();
  private readonly tests = new Map<TestCase, TimedTest>();

  constructor(private readonly options: Options = {}) {}

  onBegin(config: FullConfig, _suite: Suite) {
    this.begunAt = Date.now();
    this.workers = config.workers;
    this.rootDir = config.rootDir;
  }

  onTestEnd(test: TestCase, result: TestResult) {
    const timed = this.tests.get(test) ?? {
      project: test.parent.project()?.name ?? '',
      file: path.relative(this.rootDir, test.location.file),
      title: test.titlePath().slice(3).join(' › '),
      status: result.status,
      attempts: 0,
      durationMs: 0,
    };
    timed.attempts += 1;
    timed.durationMs += result.duration;
    timed.status = result.status;
    this.tests.set(test, timed);
  }

  onEnd(result: FullResult) {
    const startedAt = result.startTime.getTime();
    const endedAt = startedAt + result.duration;
    const begunAt = this.begunAt || endedAt;
    const tests = [...this.tests.values()];
    const setupMs = Math.round(begunAt - startedAt);
    const testsMs = Math.round(endedAt - begunAt);
    const busyMs = tests.reduce((total, test) => total + test.durationMs, 0);
    const top = this.options.top ?? 12;
    const lines = [
      `total ${seconds(endedAt - startedAt)} (${result.status}): setup (build if stale, server start, global setup) ${seconds(setupMs)}, tests ${seconds(testsMs)} on ${this.workers} worker(s), busy ${Math.round((100 * busyMs) / Math.max(1, testsMs * this.workers))} %`,
      `by project: ${sumBy(tests, (test) => test.project)
        .map(([project, sum]) => `${project} ${sum.count} tests ${seconds(sum.ms)}`)
        .join(' · ')}`,
      `retried: ${tests.filter((test) => test.attempts > 1).length}`,
      'slowest files (test time summed over projects):',
      ...sumBy(tests, (test) => test.file)
        .slice(0, top)
        .map(([file, sum]) => `  ${seconds(sum.ms).padStart(7)}  ${file} (${sum.count})`),
      'slowest tests:',
      ...[...tests]
        .sort((a, b) => b.durationMs - a.durationMs)
        .slice(0, top)
        .map(
          (test) =>
            `  ${seconds(test.durationMs).padStart(7)}  [${test.project}] ${test.file} › ${test.title}${test.attempts > 1 ? ` (${test.attempts} attempts)` : ''}`,
        ),
    ];
    const outputFile = path.resolve(this.options.outputFile ?? 'e2e-timing/run.json');
    mkdirSync(path.dirname(outputFile), { recursive: true });
    writeFileSync(
      outputFile,
      JSON.stringify(
        { startedAt: new Date(startedAt).toISOString(), status: result.status, setupMs, testsMs, workers: this.workers, tests },
        null,
        2,
      ),
    );
    console.log(
      `\n${lines.map((line) => `[timing] ${line}`).join('\n')}\n[timing] written to ${path.relative(process.cwd(), outputFile)}`,
    );
  }
}
