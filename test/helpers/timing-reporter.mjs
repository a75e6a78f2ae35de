/**
 * Jest reporter: how long each test file took, so a slow CI run says where its time went. At the end of a run it
 * prints the slowest files and writes every file's time to reports/jest-timings-<projects>.json (the Jest
 * projects that ran, e.g. jest-timings-integration.json). Not test-results/: Playwright empties that folder when its run starts.
 *
 * Plain JavaScript: Jest loads reporters without transforming them.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export default class TimingReporter {
  /** @param {import('@jest/reporters').Config.GlobalConfig} globalConfig */
  constructor(globalConfig, options = {}) {
    this.rootDir = globalConfig.rootDir;
    this.top = Number(process.env.JEST_TIMINGS_TOP ?? options.top ?? 15);
    this.outputDir = path.resolve(this.rootDir, options.outputDir ?? 'reports');
    /** @type {{ file: string, project: string, seconds: number, tests: number, failed: number }[]} */
    this.files = [];
    this.startedAt = Date.now();
  }

  onRunStart() {
    this.startedAt = Date.now();
  }

  onTestResult(test, result) {
    const { start, end } = result.perfStats;
    this.files.push({
      file: path.relative(this.rootDir, result.testFilePath),
      project: test.context.config.displayName?.name ?? '',
      // start/end are 0 for a file that failed to load: count it as no time rather than as 1970.
      seconds: start && end ? (end - start) / 1000 : 0,
      tests: result.numPassingTests + result.numFailingTests + result.numPendingTests,
      failed: result.numFailingTests,
    });
  }

  onRunComplete() {
    if (this.files.length === 0) return;
    const files = [...this.files].sort((a, b) => b.seconds - a.seconds);
    const wallSeconds = (Date.now() - this.startedAt) / 1000;
    const sumSeconds = files.reduce((sum, entry) => sum + entry.seconds, 0);
    const projects = [...new Set(files.map((entry) => entry.project || 'default'))].sort();
    const outputFile = path.join(this.outputDir, `jest-timings-${projects.join('-')}.json`);
    mkdirSync(this.outputDir, { recursive: true });
    writeFileSync(outputFile, `${JSON.stringify({ wallSeconds, sumSeconds, files }, null, 2)}\n`);

    const lines = files.slice(0, this.top).map((entry) => `  ${entry.seconds.toFixed(1).padStart(7)} s  ${entry.file}`);
    // Sum over wall time is how many files ran at once on average: the parallelism the workers actually got.
    const summary =
      `Slowest ${Math.min(this.top, files.length)} of ${files.length} test files (${projects.join(', ')}): ` +
      `${wallSeconds.toFixed(0)} s wall, ${sumSeconds.toFixed(0)} s summed over files; all in ${path.relative(this.rootDir, outputFile)}`;
    process.stderr.write(`\n${summary}\n${lines.join('\n')}\n`);
  }
}
