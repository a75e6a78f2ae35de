import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { ConfigError, getSessionSecret, loadConfig } from '@/lib/config/server';

function problemsOf(env: Record<string, string>): { variable: string; message: string }[] {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).problems;
  }
  throw new Error('expected a ConfigError');
}

describe('configuration', () => {
  it('applies the documented defaults', () => {
    const config = loadConfig({});
    expect(config.port).toBe(3000);
    expect(config.siteUrl).toBe('http://localhost:3000');
    expect(config.siteName).toBe('Chrysalis');
    expect(config.dataDir).toBe(path.resolve('./data'));
    expect(config.databaseUrl).toBeUndefined();
    expect(config.apiBaseUrl).toBeUndefined();
    expect(config.trustProxy).toBe(0);
    expect(config.uploadsPerDay).toBe(50);
  });

  it('derives SITE_URL from PORT and strips a trailing slash from an explicit one', () => {
    expect(loadConfig({ PORT: '8080' }).siteUrl).toBe('http://localhost:8080');
    expect(loadConfig({ SITE_URL: 'https://example.org/' }).siteUrl).toBe('https://example.org');
  });

  it('keeps TWITTER_SITE as a handle with its @, and leaves it unset by default', () => {
    expect(loadConfig({}).twitterSite).toBeUndefined();
    expect(loadConfig({ TWITTER_SITE: 'chrysalis_site' }).twitterSite).toBe('@chrysalis_site');
    expect(loadConfig({ TWITTER_SITE: ' @Chrysalis ' }).twitterSite).toBe('@Chrysalis');
  });

  it('treats empty variables as unset', () => {
    expect(loadConfig({ PORT: '', SITE_NAME: '  ', DATABASE_URL: '' })).toMatchObject({
      port: 3000,
      siteName: 'Chrysalis',
      databaseUrl: undefined,
    });
  });

  it.each([
    ['PORT', 'abc', /whole number/],
    ['PORT', '70000', /whole number/],
    ['PORT', '3.5', /whole number/],
    ['SITE_URL', 'example.com', /absolute http\(s\) URL/],
    ['SITE_URL', 'ftp://example.com', /absolute http\(s\) URL/],
    ['NEXT_PUBLIC_API_BASE_URL', 'not a url', /absolute http\(s\) URL/],
    ['DATABASE_URL', 'mysql://localhost/db', /postgres:\/\//],
    ['SITE_NAME', 'x'.repeat(61), /at most 60/],
    ['OPERATOR_EMAIL', 'nobody', /email address/],
    ['TWITTER_SITE', 'https://x.com/chrysalis', /X \(Twitter\) username/],
    ['TWITTER_SITE', '@a_name_far_too_long', /X \(Twitter\) username/],
    ['PUBLIC_PAGE_CACHE_SECONDS', '-1', /0 to 3600/],
    ['PUBLIC_PAGE_CACHE_SECONDS', 'soon', /0 to 3600/],
    ['TRUST_PROXY', 'true', /number of proxies .* 0 to 10/],
    ['TRUST_PROXY', '-1', /number of proxies .* 0 to 10/],
    ['TRUST_PROXY', '1.5', /number of proxies .* 0 to 10/],
    ['TRUST_PROXY', '11', /number of proxies .* 0 to 10/],
    ['UPLOADS_PER_DAY', '0', /1 to 10000/],
    ['UPLOADS_PER_DAY', 'lots', /1 to 10000/],
    ['RECORDS_RETENTION_YEARS', '0', /1 to 100/],
    ['RECORDS_RETENTION_YEARS', 'forever', /1 to 100/],
  ])('names %s when it is %p', (variable, value, message) => {
    const problems = problemsOf({ [variable]: value });
    expect(problems).toHaveLength(1);
    expect(problems[0]!.variable).toBe(variable);
    expect(problems[0]!.message).toMatch(message);
  });

  it('shows a bad database URL with its password masked', () => {
    for (const variable of ['DATABASE_URL', 'DATABASE_LISTEN_URL']) {
      const [problem] = problemsOf({
        DATABASE_URL: 'postgres://app:right@db/c',
        [variable]: 'mysql://app:hunter2-secret@db:3306/chrysalis',
      });
      expect(problem).toMatchObject({ variable, message: expect.stringContaining('mysql://app:***@db:3306/chrysalis') });
      expect(problem!.message).not.toContain('hunter2-secret');
    }
  });

  it('lists every bad variable at once, with a message naming each', () => {
    try {
      loadConfig({ PORT: 'abc', SITE_URL: 'nope' });
      throw new Error('expected a ConfigError');
    } catch (error) {
      expect((error as Error).message).toMatch(/PORT must be a whole number/);
      expect((error as Error).message).toMatch(/SITE_URL must be an absolute/);
      expect((error as Error).message).toMatch(/docs\/configuration\.md/);
    }
  });

  it('requires SESSION_SECRET in production with DATABASE_URL, without echoing secrets', () => {
    const problems = problemsOf({ NODE_ENV: 'production', DATABASE_URL: 'postgres://db/chrysalis' });
    expect(problems).toEqual([expect.objectContaining({ variable: 'SESSION_SECRET' })]);
    const short = problemsOf({ SESSION_SECRET: 'hunter2-is-my-secret' });
    expect(short[0]!.variable).toBe('SESSION_SECRET');
    expect(short[0]!.message).not.toContain('hunter2');
    expect(() =>
      loadConfig({ NODE_ENV: 'production', DATABASE_URL: 'postgres://db/c', SESSION_SECRET: 'a'.repeat(32) }),
    ).not.toThrow();
  });

  it('DATABASE_LISTEN_URL: the LISTEN connection goes to DATABASE_URL unless set, and only with DATABASE_URL (decision 022)', () => {
    expect(loadConfig({}).databaseListenUrl).toBeUndefined();
    expect(loadConfig({ DATABASE_URL: 'postgres://pooler/c' }).databaseListenUrl).toBe('postgres://pooler/c');
    expect(
      loadConfig({ DATABASE_URL: 'postgres://pooler/c', DATABASE_LISTEN_URL: 'postgresql://direct/c' }).databaseListenUrl,
    ).toBe('postgresql://direct/c');
    expect(problemsOf({ DATABASE_LISTEN_URL: 'postgres://direct/c' })).toEqual([
      { variable: 'DATABASE_LISTEN_URL', message: expect.stringMatching(/only used with DATABASE_URL/) },
    ]);
    expect(problemsOf({ DATABASE_URL: 'postgres://pooler/c', DATABASE_LISTEN_URL: 'mysql://direct/c' })[0]).toMatchObject({
      variable: 'DATABASE_LISTEN_URL',
      message: expect.stringMatching(/postgres:\/\//),
    });
  });

  it('verification: the manual provider, 30 days and 7 years by default; other values are refused with a message', () => {
    expect(loadConfig({})).toMatchObject({
      verificationProvider: 'manual',
      verificationRetentionDays: 30,
      recordsRetentionYears: 7,
    });
    expect(
      loadConfig({ VERIFICATION_PROVIDER: ' Manual ', VERIFICATION_RETENTION_DAYS: '90', RECORDS_RETENTION_YEARS: '10' }),
    ).toMatchObject({
      verificationProvider: 'manual',
      verificationRetentionDays: 90,
      recordsRetentionYears: 10,
    });
    expect(problemsOf({ VERIFICATION_PROVIDER: 'yoti' })).toEqual([
      { variable: 'VERIFICATION_PROVIDER', message: expect.stringMatching(/must be manual/) },
    ]);
    expect(problemsOf({ VERIFICATION_RETENTION_DAYS: '0' })[0]!.message).toMatch(/must be a whole number of days from 1 to 3650/);
    expect(problemsOf({ RECORDS_RETENTION_YEARS: '2.5' })[0]!.message).toMatch(/must be a whole number of years from 1 to 100/);
  });

  it('fills operator details with placeholders that name the variable to set', () => {
    const { operator } = loadConfig({});
    expect(operator.name).toBe('[Operator name — set OPERATOR_NAME]');
    expect(operator.dmcaAgentEmail).toContain('DMCA_AGENT_EMAIL');
    const configured = loadConfig({ OPERATOR_NAME: 'Example Ltd', OPERATOR_EMAIL: 'hello@example.org' }).operator;
    expect(configured).toMatchObject({ name: 'Example Ltd', email: 'hello@example.org', dmcaAgentEmail: 'hello@example.org' });
  });
});

describe('job settings (decision 023)', () => {
  it('defaults: one job at a time, every type, polling each second; done jobs kept 14 days, failed 90, stuck after 2 hours', () => {
    expect(loadConfig({}).jobs).toEqual({
      workerConcurrency: 1,
      workerJobTypes: null,
      workerPollMs: 1000,
      retentionDays: 14,
      failedRetentionDays: 90,
      stuckMinutes: 120,
    });
  });

  it('reads a list of job types, trimmed and without repeats', () => {
    expect(loadConfig({ WORKER_JOB_TYPES: ' process-video , package-hls,process-video ' }).jobs.workerJobTypes).toEqual([
      'process-video',
      'package-hls',
    ]);
    expect(loadConfig({ WORKER_JOB_TYPES: '' }).jobs.workerJobTypes).toBeNull();
  });

  it.each([
    ['WORKER_CONCURRENCY', 'two', 'WORKER_CONCURRENCY must be a whole number of jobs from 1 to 64 (got "two")'],
    ['WORKER_CONCURRENCY', '0', 'WORKER_CONCURRENCY must be a whole number of jobs from 1 to 64 (got "0")'],
    ['WORKER_POLL_MS', '1.5', 'WORKER_POLL_MS must be a whole number of milliseconds from 50 to 60000 (got "1.5")'],
    [
      'WORKER_JOB_TYPES',
      'process-video;package-hls',
      'WORKER_JOB_TYPES must be a comma-separated list of job types, e.g. process-video,package-hls (see docs/configuration.md) (got "process-video;package-hls")',
    ],
    ['JOB_RETENTION_DAYS', '-1', 'JOB_RETENTION_DAYS must be a whole number of days from 1 to 3650 (got "-1")'],
    ['JOB_STUCK_MINUTES', '1', 'JOB_STUCK_MINUTES must be a whole number of minutes from 5 to 10080 (got "1")'],
  ])('refuses %s=%s with a message naming it', (variable, value, message) => {
    expect(problemsOf({ [variable]: value }).map((p) => `${p.variable} ${p.message}`)).toEqual([message]);
  });

  it('keeps failed jobs at least as long as done ones', () => {
    expect(problemsOf({ JOB_RETENTION_DAYS: '30', JOB_FAILED_RETENTION_DAYS: '7' })).toEqual([
      {
        variable: 'JOB_FAILED_RETENTION_DAYS',
        message: 'must be at least JOB_RETENTION_DAYS (30): failed jobs are kept at least as long as finished ones (got "7")',
      },
    ]);
  });
});

describe('session secret', () => {
  it('is generated once, kept private in DATA_DIR and reused', () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'chrysalis-secret-'));
    const config = loadConfig({ DATA_DIR: dataDir });
    const first = getSessionSecret(config);
    expect(first).toMatch(/^[0-9a-f]{64}$/);
    expect(getSessionSecret(config)).toBe(first);
    const file = path.join(dataDir, 'session-secret');
    expect(readFileSync(file, 'utf8')).toBe(first);
    expect(statSync(file).mode & 0o077).toBe(0);
  });

  it('prefers an explicit SESSION_SECRET', () => {
    const secret = 's'.repeat(40);
    expect(getSessionSecret(loadConfig({ SESSION_SECRET: secret, DATA_DIR: '/nonexistent' }))).toBe(secret);
  });
});
