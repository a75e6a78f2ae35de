import 'server-only';

import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import { placeholder, type OperatorInfo } from '@/lib/operator';

import { parseEnv, type VipPlan } from './schema';

export { ConfigError } from './schema';
export type { VipPlan } from './schema';

/** S3-compatible media storage (AWS S3, MinIO, Cloudflare R2, Backblaze B2…); see docs/configuration.md. */
export interface MediaS3Config {
  bucket: string;
  region: string;
  /** Unset means AWS S3 itself. */
  endpoint: string | undefined;
  accessKeyId: string;
  secretAccessKey: string;
  /** `endpoint/bucket/key` URLs instead of `bucket.endpoint/key`. */
  forcePathStyle: boolean;
  /** Prepended to every key with a slash; '' for none. */
  prefix: string;
}

export type MediaOffload =
  { mode: 'none' } | { mode: 'x-accel'; accelPrefix: string } | { mode: 'redirect'; redirectSeconds: number };

export interface ServerConfig {
  nodeEnv: 'development' | 'production' | 'test';
  port: number;
  /** Canonical origin without a trailing slash. */
  siteUrl: string;
  siteName: string;
  /** The site's X (Twitter) handle with its @, for twitter:site; unset means no such tag. */
  twitterSite: string | undefined;
  /** Absolute path of the data directory. */
  dataDir: string;
  /** Unset means the embedded PGlite database under dataDir. */
  databaseUrl: string | undefined;
  /** Where this process LISTENs for the other processes' events (DATABASE_LISTEN_URL, else DATABASE_URL); unset with the embedded database. */
  databaseListenUrl: string | undefined;
  /** Explicit secret, if the operator set one; see getSessionSecret(). */
  sessionSecret: string | undefined;
  /** The identity-document key, if the operator set one; see getVerificationKey() in lib/server/trust/documents.ts. */
  verificationKey: string | undefined;
  /** Who checks uploaders' identities (lib/server/verification/provider.ts). */
  verificationProvider: 'manual';
  /** Days after an account ends that its identity documents are deleted (those the law requires excepted). */
  verificationRetentionDays: number;
  /** Years after an account ends that a publishing uploader's 2257 records are kept. */
  recordsRetentionYears: number;
  /** Unset means the API is served from the same origin. */
  apiBaseUrl: string | undefined;
  /** Unset means mail is written to DATA_DIR/outbox as .eml files. */
  smtpUrl: string | undefined;
  mailFrom: string;
  /** Largest video upload accepted, in bytes. */
  maxUploadBytes: number;
  /** Uploads one member may start per 24 hours. */
  uploadsPerDay: number;
  /** Files from this size on are uploaded with tus (resumable); smaller ones with one multipart POST. */
  resumableUploadThresholdBytes: number;
  /** How long an unfinished resumable upload is kept after it was started, in milliseconds. */
  resumableUploadExpiryMs: number;
  /** Proxy hops in front of the server whose X-Forwarded-For entries are believed (lib/front/resolve-client-address.ts). */
  trustProxy: number;
  /** The admin account ensured at start, when configured. */
  admin: { username: string; email: string; password: string } | undefined;
  operator: OperatorInfo;
  /** Null means media lives in DATA_DIR/media. */
  mediaS3: MediaS3Config | null;
  /** Who sends media bytes after the app's access check (decision 021): the app, nginx (X-Accel-Redirect to accelPrefix + key) or the bucket (302 to a URL presigned for redirectSeconds). */
  mediaOffload: MediaOffload;
  /** Where pg_dump, pg_restore and psql are (backups); unset means the PATH. */
  pgBinDir: string | undefined;
  /** The key file backups are encrypted with when --key-file is not given (decision 024). */
  backupKeyFile: string | undefined;
  /** The VIP plans /subscribe offers (VIP_PLANS, or the defaults). */
  vipPlans: VipPlan[];
  /** Null means no processor is connected: checkout is unavailable, admins can still grant VIP. */
  verotel: { shopId: string; signatureKey: string; baseUrl: string } | null;
  /** Background jobs (decision 023): what `npm run worker` runs, and how long finished jobs are kept. */
  jobs: {
    /** Jobs one `npm run worker` process runs at once. */
    workerConcurrency: number;
    /** Job types `npm run worker` takes; null: all of them. */
    workerJobTypes: string[] | null;
    /** How often an idle worker looks for jobs. */
    workerPollMs: number;
    /** Days a finished (done) job is kept. */
    retentionDays: number;
    /** Days a failed job is kept after it gave up (unless retried). */
    failedRetentionDays: number;
    /** A running job is stuck after this many minutes (or at once when its lease ran out). */
    stuckMinutes: number;
  };
  /** Notices and copyright (decision 016): the urgent-notice alert address, the counter-notice wait, the repeat-infringer limit. */
  trust: { adminAlertEmail: string | undefined; counterNoticeWaitBusinessDays: number; repeatInfringerStrikes: number };
}

/** Validates an environment and resolves defaults. Throws ConfigError. */
export function loadConfig(env: Record<string, string | undefined> = process.env): ServerConfig {
  const raw = parseEnv(env);
  const siteUrl = raw.SITE_URL ?? `http://localhost:${raw.PORT}`;
  return {
    nodeEnv: raw.NODE_ENV,
    port: raw.PORT,
    siteUrl,
    siteName: raw.SITE_NAME,
    twitterSite: raw.TWITTER_SITE,
    dataDir: path.resolve(raw.DATA_DIR),
    databaseUrl: raw.DATABASE_URL,
    databaseListenUrl: raw.DATABASE_URL && (raw.DATABASE_LISTEN_URL ?? raw.DATABASE_URL),
    sessionSecret: raw.SESSION_SECRET,
    verificationKey: raw.VERIFICATION_KEY?.toLowerCase(),
    verificationProvider: raw.VERIFICATION_PROVIDER,
    verificationRetentionDays: raw.VERIFICATION_RETENTION_DAYS,
    recordsRetentionYears: raw.RECORDS_RETENTION_YEARS,
    apiBaseUrl: raw.NEXT_PUBLIC_API_BASE_URL,
    smtpUrl: raw.SMTP_URL,
    maxUploadBytes: raw.MAX_UPLOAD_BYTES,
    uploadsPerDay: raw.UPLOADS_PER_DAY,
    resumableUploadThresholdBytes: raw.RESUMABLE_UPLOAD_THRESHOLD_BYTES,
    resumableUploadExpiryMs: raw.RESUMABLE_UPLOAD_EXPIRY_HOURS * 60 * 60_000,
    trustProxy: raw.TRUST_PROXY,
    trust: {
      adminAlertEmail: raw.ADMIN_ALERT_EMAIL,
      counterNoticeWaitBusinessDays: raw.COUNTER_NOTICE_WAIT_BUSINESS_DAYS,
      repeatInfringerStrikes: raw.REPEAT_INFRINGER_STRIKES,
    },
    jobs: {
      workerConcurrency: raw.WORKER_CONCURRENCY,
      workerJobTypes: raw.WORKER_JOB_TYPES?.length ? raw.WORKER_JOB_TYPES : null,
      workerPollMs: raw.WORKER_POLL_MS,
      retentionDays: raw.JOB_RETENTION_DAYS,
      failedRetentionDays: raw.JOB_FAILED_RETENTION_DAYS,
      stuckMinutes: raw.JOB_STUCK_MINUTES,
    },
    mailFrom: raw.MAIL_FROM ?? `${raw.SITE_NAME} <no-reply@${new URL(siteUrl).hostname}>`,
    admin:
      raw.ADMIN_USERNAME && raw.ADMIN_EMAIL && raw.ADMIN_PASSWORD
        ? { username: raw.ADMIN_USERNAME, email: raw.ADMIN_EMAIL.toLowerCase(), password: raw.ADMIN_PASSWORD }
        : undefined,
    operator: {
      siteName: raw.SITE_NAME,
      siteUrl,
      name: raw.OPERATOR_NAME ?? placeholder('OPERATOR_NAME', 'Operator name'),
      email: raw.OPERATOR_EMAIL ?? placeholder('OPERATOR_EMAIL', 'contact email'),
      address: raw.OPERATOR_ADDRESS ?? placeholder('OPERATOR_ADDRESS', 'Operator postal address'),
      dmcaAgentName: raw.DMCA_AGENT_NAME ?? placeholder('DMCA_AGENT_NAME', 'DMCA agent name'),
      dmcaAgentEmail: raw.DMCA_AGENT_EMAIL ?? raw.OPERATOR_EMAIL ?? placeholder('DMCA_AGENT_EMAIL', 'DMCA agent email'),
      dmcaAgentAddress:
        raw.DMCA_AGENT_ADDRESS ?? raw.OPERATOR_ADDRESS ?? placeholder('DMCA_AGENT_ADDRESS', 'DMCA agent postal address'),
      repeatInfringerStrikes: raw.REPEAT_INFRINGER_STRIKES,
      counterNoticeWaitBusinessDays: raw.COUNTER_NOTICE_WAIT_BUSINESS_DAYS,
      recordsCustodianName: raw.RECORDS_CUSTODIAN_NAME ?? placeholder('RECORDS_CUSTODIAN_NAME', 'Custodian of records'),
      recordsCustodianAddress:
        raw.RECORDS_CUSTODIAN_ADDRESS ?? placeholder('RECORDS_CUSTODIAN_ADDRESS', 'Custodian of records street address'),
      recordsCustodianConfigured: Boolean(raw.RECORDS_CUSTODIAN_NAME && raw.RECORDS_CUSTODIAN_ADDRESS),
      verificationRetentionDays: raw.VERIFICATION_RETENTION_DAYS,
      recordsRetentionYears: raw.RECORDS_RETENTION_YEARS,
    },
    // The schema already requires both keys when the bucket is set.
    mediaS3:
      raw.MEDIA_S3_BUCKET && raw.MEDIA_S3_ACCESS_KEY_ID && raw.MEDIA_S3_SECRET_ACCESS_KEY
        ? {
            bucket: raw.MEDIA_S3_BUCKET,
            region: raw.MEDIA_S3_REGION,
            endpoint: raw.MEDIA_S3_ENDPOINT,
            accessKeyId: raw.MEDIA_S3_ACCESS_KEY_ID,
            secretAccessKey: raw.MEDIA_S3_SECRET_ACCESS_KEY,
            forcePathStyle: raw.MEDIA_S3_FORCE_PATH_STYLE ?? Boolean(raw.MEDIA_S3_ENDPOINT),
            prefix: raw.MEDIA_S3_PREFIX ?? '',
          }
        : null,
    mediaOffload:
      raw.MEDIA_OFFLOAD === 'x-accel'
        ? { mode: 'x-accel', accelPrefix: raw.MEDIA_ACCEL_PREFIX }
        : raw.MEDIA_OFFLOAD === 'redirect'
          ? { mode: 'redirect', redirectSeconds: raw.MEDIA_REDIRECT_SECONDS }
          : { mode: 'none' },
    pgBinDir: raw.PG_BIN_DIR,
    backupKeyFile: raw.BACKUP_KEY_FILE,
    vipPlans: raw.VIP_PLANS,
    verotel:
      raw.VEROTEL_SHOP_ID && raw.VEROTEL_SIGNATURE_KEY
        ? { shopId: raw.VEROTEL_SHOP_ID, signatureKey: raw.VEROTEL_SIGNATURE_KEY, baseUrl: raw.VEROTEL_FLEXPAY_BASE_URL }
        : null,
  };
}

let cached: ServerConfig | undefined;

/** The process-wide configuration, validated once on first use. */
export function getConfig(): ServerConfig {
  cached ??= loadConfig();
  return cached;
}

/**
 * The key that seals session cookies. An explicit SESSION_SECRET wins;
 * otherwise one is generated once and kept in DATA_DIR/session-secret, so
 * sessions survive restarts without any setup on a single machine. (The
 * schema already refuses a missing secret in production with DATABASE_URL,
 * where several processes on several machines must share one key.)
 */
export function getSessionSecret(config: ServerConfig = getConfig()): string {
  if (config.sessionSecret) return config.sessionSecret;
  const file = path.join(config.dataDir, 'session-secret');
  mkdirSync(config.dataDir, { recursive: true });
  try {
    // 'wx' fails if the file exists, so two processes starting at once agree on one secret.
    writeFileSync(file, randomBytes(32).toString('hex'), { flag: 'wx', mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  return readFileSync(file, 'utf8').trim();
}
