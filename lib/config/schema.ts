import { z } from 'zod';

/**
 * The environment variables operators set, validated in one place.
 *
 * This file has no side effects and no server-only marker so unit tests and
 * scripts can exercise it; `lib/config/server.ts` is the runtime entry point.
 */

const emptyToUndefined = (value: unknown) => (typeof value === 'string' && value.trim() === '' ? undefined : value);

const optionalString = z.preprocess(emptyToUndefined, z.string().trim().optional());

const optionalBoolean = z.preprocess(
  (value) => (typeof value === 'string' ? value.trim().toLowerCase() || undefined : value),
  z
    .enum(['true', 'false', '1', '0', 'yes', 'no'], { error: 'must be true or false' })
    .transform((value) => value === 'true' || value === '1' || value === 'yes')
    .optional(),
);

const httpOrigin = z
  .string()
  .trim()
  .refine((value) => {
    try {
      const url = new URL(value);
      return url.protocol === 'http:' || url.protocol === 'https:';
    } catch {
      return false;
    }
  }, 'must be an absolute http(s) URL such as https://example.com')
  .transform((value) => value.replace(/\/+$/, ''));

/** One VIP plan offered on /subscribe; VIP_PLANS is a JSON array of these. */
export const vipPlanSchema = z.object({
  id: z.string().regex(/^[a-z0-9][a-z0-9-]{0,31}$/, 'plan ids are 1 to 32 lower-case letters, digits or hyphens'),
  name: z.string().trim().min(1).max(60),
  /** Decimal price with two places, as the processor takes it, e.g. "9.99". */
  priceAmount: z.string().regex(/^\d{1,6}\.\d{2}$/, 'priceAmount is a string like "9.99"'),
  priceCurrency: z.enum(['USD', 'EUR', 'GBP', 'AUD', 'CAD', 'CHF', 'DKK', 'NOK', 'SEK'], {
    error: 'priceCurrency must be one of USD, EUR, GBP, AUD, CAD, CHF, DKK, NOK, SEK',
  }),
  /** Days of VIP a payment buys (the billing period of a recurring plan). */
  periodDays: z.number().int().min(1).max(3650),
  /** Renewed by the processor until cancelled, or a one-time pass. */
  recurring: z.boolean().default(true),
});
export type VipPlan = z.infer<typeof vipPlanSchema>;

export const DEFAULT_VIP_PLANS: VipPlan[] = [
  { id: 'monthly', name: 'Monthly', priceAmount: '9.99', priceCurrency: 'USD', periodDays: 30, recurring: true },
  { id: 'quarterly', name: 'Quarterly', priceAmount: '24.99', priceCurrency: 'USD', periodDays: 90, recurring: true },
  { id: 'pass-30', name: '30-day pass', priceAmount: '12.99', priceCurrency: 'USD', periodDays: 30, recurring: false },
];

const vipPlans = z.preprocess(
  (value) => {
    if (typeof value !== 'string' || value.trim() === '') return undefined;
    try {
      return JSON.parse(value);
    } catch {
      return value; // not JSON: the array check below names the problem
    }
  },
  z
    .array(vipPlanSchema, {
      error:
        'must be a JSON array of plans like [{"id":"monthly","name":"Monthly","priceAmount":"9.99","priceCurrency":"USD","periodDays":30,"recurring":true}]',
    })
    .min(1, 'must list at least one plan')
    .refine((plans) => new Set(plans.map((plan) => plan.id)).size === plans.length, 'plan ids must be unique')
    .default(DEFAULT_VIP_PLANS),
);

/** A whole number from min to max (an empty variable means the default), with one message for every way it can be wrong. */
const wholeNumber = (message: string, min: number, max: number, fallback: number) =>
  z.preprocess(
    emptyToUndefined,
    z.coerce.number({ error: message }).int(message).min(min, message).max(max, message).default(fallback),
  );

/** A TCP port (PORT, METRICS_PORT). */
const portNumber = z.coerce
  .number({ error: 'must be a whole number between 1 and 65535' })
  .int('must be a whole number between 1 and 65535')
  .min(1, 'must be a whole number between 1 and 65535')
  .max(65535, 'must be a whole number between 1 and 65535');

/** LOG_LEVEL (lib/server/log): pino's levels, from the most to the least said. */
export const logLevelSchema = z.preprocess(
  (value) => (typeof value === 'string' ? value.trim().toLowerCase() || undefined : value),
  z
    .enum(['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'], {
      error: 'must be one of trace, debug, info, warn, error, fatal, silent',
    })
    .default('info'),
);

export const envSchema = z
  .object({
    NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
    PORT: z.preprocess(emptyToUndefined, portNumber.default(3000)),
    SITE_URL: z.preprocess(emptyToUndefined, httpOrigin.optional()),
    SITE_NAME: z.preprocess(emptyToUndefined, z.string().trim().max(60, 'must be at most 60 characters').default('Chrysalis')),
    /** The site's X (Twitter) account for twitter:site, "@name" or "name"; stored with the @. */
    TWITTER_SITE: z.preprocess(
      emptyToUndefined,
      z
        .string()
        .trim()
        .regex(/^@?[A-Za-z0-9_]{1,15}$/, 'must be an X (Twitter) username: up to 15 letters, digits or _, with or without @')
        .transform((name) => (name.startsWith('@') ? name : `@${name}`))
        .optional(),
    ),
    DATA_DIR: z.preprocess(emptyToUndefined, z.string().default('./data')),
    DATABASE_URL: z.preprocess(
      emptyToUndefined,
      z
        .string()
        .trim()
        .regex(/^postgres(ql)?:\/\/.+/, 'must be a postgres:// or postgresql:// connection URL')
        .optional(),
    ),
    /** A direct (session) connection for LISTEN/NOTIFY when DATABASE_URL goes through a transaction pooler (decision 022). */
    DATABASE_LISTEN_URL: z.preprocess(
      emptyToUndefined,
      z
        .string()
        .trim()
        .regex(/^postgres(ql)?:\/\/.+/, 'must be a postgres:// or postgresql:// connection URL')
        .optional(),
    ),
    SESSION_SECRET: z.preprocess(
      emptyToUndefined,
      z.string().min(32, 'must be at least 32 characters (for example: openssl rand -hex 32)').optional(),
    ),
    NEXT_PUBLIC_API_BASE_URL: z.preprocess(emptyToUndefined, httpOrigin.optional()),
    PUBLIC_PAGE_CACHE_SECONDS: z.preprocess(
      emptyToUndefined,
      z.coerce
        .number({ error: 'must be a whole number of seconds from 0 to 3600' })
        .int('must be a whole number of seconds from 0 to 3600')
        .min(0, 'must be a whole number of seconds from 0 to 3600')
        .max(3600, 'must be a whole number of seconds from 0 to 3600')
        .default(5),
    ),
    SMTP_URL: z.preprocess(
      emptyToUndefined,
      z
        .string()
        .trim()
        .regex(/^smtps?:\/\/.+/, 'must be an smtp:// or smtps:// URL, e.g. smtps://user:pass@mail.example.com:465')
        .optional(),
    ),
    MAIL_FROM: z.preprocess(emptyToUndefined, z.string().trim().max(200).optional()),
    ADMIN_USERNAME: optionalString,
    ADMIN_EMAIL: z.preprocess(emptyToUndefined, z.email('must be an email address').optional()),
    ADMIN_PASSWORD: z.preprocess(emptyToUndefined, z.string().min(12, 'must be at least 12 characters').optional()),
    /** AES-256 key for identity documents and releases (lib/server/trust/documents.ts): 64 hex characters. */
    VERIFICATION_KEY: z.preprocess(
      emptyToUndefined,
      z
        .string()
        .trim()
        .regex(/^[0-9a-fA-F]{64}$/, 'must be 64 hexadecimal characters (32 bytes; for example: openssl rand -hex 32)')
        .optional(),
    ),
    // Who checks uploaders' identities (lib/server/verification): 'manual' (admins review documents) is the built-in one.
    VERIFICATION_PROVIDER: z.preprocess(
      (value) => (typeof value === 'string' ? value.trim().toLowerCase() || undefined : value),
      z
        .enum(['manual'], {
          error: 'must be manual (admins review the documents members submit); it is the only built-in provider',
        })
        .default('manual'),
    ),
    // Days identity documents are kept after an account ends, unless the law requires them kept longer.
    VERIFICATION_RETENTION_DAYS: z.preprocess(
      emptyToUndefined,
      z.coerce
        .number({ error: 'must be a whole number of days from 1 to 3650' })
        .int('must be a whole number of days from 1 to 3650')
        .min(1, 'must be a whole number of days from 1 to 3650')
        .max(3650, 'must be a whole number of days from 1 to 3650')
        .default(30),
    ),
    // Years the 18 U.S.C. 2257 records of an uploader who published videos are kept after the account ends (28 CFR 75.4: seven).
    RECORDS_RETENTION_YEARS: z.preprocess(
      emptyToUndefined,
      z.coerce
        .number({ error: 'must be a whole number of years from 1 to 100' })
        .int('must be a whole number of years from 1 to 100')
        .min(1, 'must be a whole number of years from 1 to 100')
        .max(100, 'must be a whole number of years from 1 to 100')
        .default(7),
    ),
    GEO_BLOCKED_REGIONS: z.preprocess(
      emptyToUndefined,
      z
        .string()
        .trim()
        .regex(
          /^[A-Za-z]{2}(-[A-Za-z0-9]{1,3})?(\s*,\s*[A-Za-z]{2}(-[A-Za-z0-9]{1,3})?)*$/,
          'must be a comma-separated list of ISO 3166-1 country codes and ISO 3166-2 subdivision codes, e.g. GB,US-TX',
        )
        .optional(),
    ),
    GEO_COUNTRY_HEADER: z.preprocess(emptyToUndefined, z.string().trim().toLowerCase().default('cf-ipcountry')),
    GEO_REGION_HEADER: z.preprocess(emptyToUndefined, z.string().trim().toLowerCase().default('cf-region-code')),
    GEOIP_DB: optionalString,
    // Proxies (load balancer, CDN) between clients and this server, each appending to X-Forwarded-For; 0: clients connect directly.
    TRUST_PROXY: z.preprocess(
      emptyToUndefined,
      z.coerce
        .number({ error: 'must be the number of proxies in front of the server, a whole number from 0 to 10' })
        .int('must be the number of proxies in front of the server, a whole number from 0 to 10')
        .min(0, 'must be the number of proxies in front of the server, a whole number from 0 to 10')
        .max(10, 'must be the number of proxies in front of the server, a whole number from 0 to 10')
        .default(0),
    ),
    MAX_UPLOAD_BYTES: z.preprocess(
      emptyToUndefined,
      z.coerce
        .number({ error: 'must be a whole number of bytes' })
        .int('must be a whole number of bytes')
        .min(1024, 'must be at least 1024 bytes')
        .default(4 * 1024 * 1024 * 1024),
    ),
    UPLOADS_PER_DAY: z.preprocess(
      emptyToUndefined,
      z.coerce
        .number({ error: 'must be a whole number of uploads from 1 to 10000' })
        .int('must be a whole number of uploads from 1 to 10000')
        .min(1, 'must be a whole number of uploads from 1 to 10000')
        .max(10_000, 'must be a whole number of uploads from 1 to 10000')
        .default(50),
    ),
    // Resumable (tus) uploads (lib/server/videos/resumable.ts, decision 026): files from this size on go through tus; unfinished ones expire.
    RESUMABLE_UPLOAD_THRESHOLD_BYTES: z.preprocess(
      emptyToUndefined,
      z.coerce
        .number({ error: 'must be a whole number of bytes' })
        .int('must be a whole number of bytes')
        .min(0, 'must be a whole number of bytes')
        .default(64 * 1024 * 1024),
    ),
    RESUMABLE_UPLOAD_EXPIRY_HOURS: wholeNumber('must be a whole number of hours from 1 to 720', 1, 720, 24),
    // Background jobs (lib/server/jobs, scripts/worker.ts, decision 023).
    WORKER_CONCURRENCY: wholeNumber('must be a whole number of jobs from 1 to 64', 1, 64, 1),
    WORKER_JOB_TYPES: z.preprocess(
      emptyToUndefined,
      z
        .string()
        .trim()
        .regex(
          /^[a-z0-9][a-z0-9-]*(\s*,\s*[a-z0-9][a-z0-9-]*)*\s*,?$/,
          'must be a comma-separated list of job types, e.g. process-video,package-hls (see docs/configuration.md)',
        )
        .transform((value) => [
          ...new Set(
            value
              .split(',')
              .map((type) => type.trim())
              .filter(Boolean),
          ),
        ])
        .optional(),
    ),
    WORKER_POLL_MS: wholeNumber('must be a whole number of milliseconds from 50 to 60000', 50, 60_000, 1_000),
    JOB_RETENTION_DAYS: wholeNumber('must be a whole number of days from 1 to 3650', 1, 3650, 14),
    JOB_FAILED_RETENTION_DAYS: wholeNumber('must be a whole number of days from 1 to 3650', 1, 3650, 90),
    JOB_STUCK_MINUTES: wholeNumber('must be a whole number of minutes from 5 to 10080', 5, 10_080, 120),
    // Demo videos on the first start of an empty embedded database; 0 turns them off.
    SEED_DEMO: z.preprocess(
      (value) => (typeof value === 'string' ? value.trim().toLowerCase() || undefined : value),
      z
        .enum(['1', '0', 'true', 'false', 'yes', 'no'], { error: 'must be 1 (demo content on an empty site) or 0 (none)' })
        .transform((value) => value === '1' || value === 'true' || value === 'yes')
        .default(true),
    ),
    OPERATOR_NAME: optionalString,
    OPERATOR_EMAIL: z.preprocess(emptyToUndefined, z.email('must be an email address').optional()),
    OPERATOR_ADDRESS: optionalString,
    DMCA_AGENT_NAME: optionalString,
    DMCA_AGENT_EMAIL: z.preprocess(emptyToUndefined, z.email('must be an email address').optional()),
    DMCA_AGENT_ADDRESS: optionalString,
    /** Where an alert goes for each urgent notice (non-consent, minors); unset: no alert mail (decision 016). */
    ADMIN_ALERT_EMAIL: z.preprocess(emptyToUndefined, z.email('must be an email address').optional()),
    /** 17 U.S.C. 512(g)(2)(C): a counter-noticed video comes back after 10 to 14 business days. */
    COUNTER_NOTICE_WAIT_BUSINESS_DAYS: z.preprocess(
      emptyToUndefined,
      z.coerce
        .number({ error: 'must be a whole number of business days from 10 to 14' })
        .int('must be a whole number of business days from 10 to 14')
        .min(10, 'must be a whole number of business days from 10 to 14 (17 U.S.C. 512(g)(2)(C))')
        .max(14, 'must be a whole number of business days from 10 to 14 (17 U.S.C. 512(g)(2)(C))')
        .default(10),
    ),
    /** Takedowns that stand before an uploader's account ends (17 U.S.C. 512(i) repeat-infringer policy). */
    REPEAT_INFRINGER_STRIKES: z.preprocess(
      emptyToUndefined,
      z.coerce
        .number({ error: 'must be a whole number from 1 to 10' })
        .int('must be a whole number from 1 to 10')
        .min(1, 'must be a whole number from 1 to 10')
        .max(10, 'must be a whole number from 1 to 10')
        .default(3),
    ),
    // The custodian of records named on /2257 (18 U.S.C. 2257 and 28 C.F.R. 75.6): a person's name and a street address (no P.O. box).
    RECORDS_CUSTODIAN_NAME: z.preprocess(
      emptyToUndefined,
      z.string().trim().max(200, 'must be at most 200 characters').optional(),
    ),
    RECORDS_CUSTODIAN_ADDRESS: z.preprocess(
      emptyToUndefined,
      z
        .string()
        .trim()
        .max(500, 'must be at most 500 characters')
        .refine(
          (value) => !/\bP\.?\s*O\.?\s*Box\b/i.test(value),
          'must be a street address: 28 C.F.R. 75.6 does not accept a P.O. box',
        )
        .optional(),
    ),
    MEDIA_S3_BUCKET: z.preprocess(
      emptyToUndefined,
      z
        .string()
        .trim()
        .regex(
          /^[A-Za-z0-9][A-Za-z0-9._-]{1,62}$/,
          'must be a bucket name: 3 to 63 letters, digits, dots, hyphens or underscores',
        )
        .optional(),
    ),
    MEDIA_S3_REGION: z.preprocess(emptyToUndefined, z.string().trim().default('us-east-1')),
    MEDIA_S3_ENDPOINT: z.preprocess(emptyToUndefined, httpOrigin.optional()),
    MEDIA_S3_ACCESS_KEY_ID: optionalString,
    MEDIA_S3_SECRET_ACCESS_KEY: optionalString,
    MEDIA_S3_FORCE_PATH_STYLE: optionalBoolean,
    MEDIA_S3_PREFIX: z.preprocess(
      emptyToUndefined,
      z
        .string()
        .trim()
        .transform((value) => value.replace(/^\/+|\/+$/g, ''))
        .refine(
          (value) => value === '' || !value.split('/').some((part) => part === '' || part === '.' || part === '..'),
          'must be a key prefix such as chrysalis or site/media (no empty, . or .. parts)',
        )
        .optional(),
    ),
    // Who sends media bytes once the app has checked access (decision 021): the app itself, nginx from disk (X-Accel-Redirect), or the bucket (302 to a presigned URL).
    MEDIA_OFFLOAD: z.preprocess(
      (value) => (typeof value === 'string' ? value.trim().toLowerCase() || undefined : value),
      z
        .enum(['none', 'x-accel', 'redirect'], {
          error: 'must be none (the app sends media), x-accel (nginx sends it from disk) or redirect (a presigned S3 URL)',
        })
        .default('none'),
    ),
    // The internal nginx location that maps to DATA_DIR/media/ (deploy/nginx.conf: location /_media/ { internal; alias …; }).
    MEDIA_ACCEL_PREFIX: z.preprocess(
      emptyToUndefined,
      z
        .string()
        .trim()
        .regex(
          /^\/([A-Za-z0-9._~-]+\/)+$/,
          'must be an internal location path such as /_media/ (starts and ends with /, letters, digits, . _ ~ -)',
        )
        .refine((value) => !value.split('/').some((part) => part === '.' || part === '..'), 'must not contain . or .. segments')
        .default('/_media/'),
    ),
    // Lifetime of the presigned URLs MEDIA_OFFLOAD=redirect answers with: long enough for one viewing of the longest MP4.
    MEDIA_REDIRECT_SECONDS: z.preprocess(
      emptyToUndefined,
      z.coerce
        .number({ error: 'must be a whole number of seconds from 60 to 604800 (7 days, the longest S3 allows)' })
        .int('must be a whole number of seconds from 60 to 604800 (7 days, the longest S3 allows)')
        .min(60, 'must be a whole number of seconds from 60 to 604800 (7 days, the longest S3 allows)')
        .max(604_800, 'must be a whole number of seconds from 60 to 604800 (7 days, the longest S3 allows)')
        .default(3600),
    ),
    // Folder holding pg_dump, pg_restore and psql for npm run backup / restore (e.g. /usr/lib/postgresql/17/bin); unset: the PATH.
    PG_BIN_DIR: optionalString,
    // Key file (64 hex characters) npm run backup encrypts with and npm run restore decrypts with, when --key-file is not given.
    BACKUP_KEY_FILE: optionalString,
    VIP_PLANS: vipPlans,
    // Verotel FlexPay (an adult-capable card processor): the website's shop id and signature key from its Control Center.
    VEROTEL_SHOP_ID: z.preprocess(
      emptyToUndefined,
      z
        .string()
        .trim()
        .regex(/^\d{1,12}$/, 'must be the numeric shop (website) id from the Verotel Control Center')
        .optional(),
    ),
    VEROTEL_SIGNATURE_KEY: z.preprocess(
      emptyToUndefined,
      z.string().trim().min(8, 'must be the signature key from the Verotel Control Center').optional(),
    ),
    // Verotel's other brands (CardBilling, GayCharge…) use their own host for the same protocol.
    VEROTEL_FLEXPAY_BASE_URL: z.preprocess(emptyToUndefined, httpOrigin.default('https://secure.verotel.com')),
    LOG_LEVEL: logLevelSchema,
    // Prometheus metrics (docs/operations.md, Metrics): a bearer token for /metrics on the site's port, and/or a port of their own.
    METRICS_TOKEN: z.preprocess(
      emptyToUndefined,
      z.string().trim().min(16, 'must be at least 16 characters (for example: openssl rand -hex 32)').optional(),
    ),
    METRICS_PORT: z.preprocess(emptyToUndefined, portNumber.optional()),
    METRICS_HOST: z.preprocess(emptyToUndefined, z.string().trim().default('127.0.0.1')),
  })
  .superRefine((env, ctx) => {
    if (Boolean(env.VEROTEL_SHOP_ID) !== Boolean(env.VEROTEL_SIGNATURE_KEY)) {
      const missing = env.VEROTEL_SHOP_ID ? 'VEROTEL_SIGNATURE_KEY' : 'VEROTEL_SHOP_ID';
      ctx.addIssue({
        code: 'custom',
        path: [missing],
        message: 'is required when the other VEROTEL_* variable is set (Verotel payments)',
      });
    }
    const admin = [env.ADMIN_USERNAME, env.ADMIN_EMAIL, env.ADMIN_PASSWORD];
    if (admin.some(Boolean) && !admin.every(Boolean)) {
      for (const [name, value] of [
        ['ADMIN_USERNAME', env.ADMIN_USERNAME],
        ['ADMIN_EMAIL', env.ADMIN_EMAIL],
        ['ADMIN_PASSWORD', env.ADMIN_PASSWORD],
      ] as const) {
        if (!value)
          ctx.addIssue({
            code: 'custom',
            path: [name],
            message: 'is required when any of ADMIN_USERNAME, ADMIN_EMAIL, ADMIN_PASSWORD is set',
          });
      }
    }
    if (env.MEDIA_S3_BUCKET) {
      for (const [name, value] of [
        ['MEDIA_S3_ACCESS_KEY_ID', env.MEDIA_S3_ACCESS_KEY_ID],
        ['MEDIA_S3_SECRET_ACCESS_KEY', env.MEDIA_S3_SECRET_ACCESS_KEY],
      ] as const) {
        if (!value)
          ctx.addIssue({ code: 'custom', path: [name], message: 'is required when MEDIA_S3_BUCKET is set (S3 media storage)' });
      }
    } else if (env.MEDIA_S3_ENDPOINT || env.MEDIA_S3_ACCESS_KEY_ID || env.MEDIA_S3_SECRET_ACCESS_KEY || env.MEDIA_S3_PREFIX) {
      // Otherwise media would quietly go to DATA_DIR while the operator believes it is in a bucket.
      ctx.addIssue({
        code: 'custom',
        path: ['MEDIA_S3_BUCKET'],
        message: 'is required when other MEDIA_S3_* variables are set (or unset them to keep media in DATA_DIR/media)',
      });
    }
    if (env.MEDIA_OFFLOAD === 'redirect' && !env.MEDIA_S3_BUCKET) {
      ctx.addIssue({
        code: 'custom',
        path: ['MEDIA_OFFLOAD'],
        message: 'redirect needs S3 media storage (MEDIA_S3_BUCKET); with media in DATA_DIR/media use x-accel behind nginx',
      });
    }
    if (env.MEDIA_OFFLOAD === 'x-accel' && env.MEDIA_S3_BUCKET) {
      ctx.addIssue({
        code: 'custom',
        path: ['MEDIA_OFFLOAD'],
        message: 'x-accel serves media from the local disk, but MEDIA_S3_BUCKET keeps it in a bucket: use redirect (or none)',
      });
    }
    if (env.JOB_FAILED_RETENTION_DAYS < env.JOB_RETENTION_DAYS) {
      ctx.addIssue({
        code: 'custom',
        path: ['JOB_FAILED_RETENTION_DAYS'],
        message: `must be at least JOB_RETENTION_DAYS (${env.JOB_RETENTION_DAYS}): failed jobs are kept at least as long as finished ones`,
      });
    }
    if (env.DATABASE_LISTEN_URL && !env.DATABASE_URL) {
      ctx.addIssue({
        code: 'custom',
        path: ['DATABASE_LISTEN_URL'],
        message: 'is only used with DATABASE_URL (PostgreSQL); set both, or neither',
      });
    }
    if (env.DATABASE_URL && env.NODE_ENV === 'production' && !env.SESSION_SECRET) {
      ctx.addIssue({
        code: 'custom',
        path: ['SESSION_SECRET'],
        message: 'is required in production when DATABASE_URL is set, so every web process seals sessions with the same key',
      });
    }
  });

export type RawEnv = z.infer<typeof envSchema>;

export class ConfigError extends Error {
  constructor(readonly problems: { variable: string; message: string }[]) {
    super(
      `Invalid configuration:\n${problems.map((p) => `  ${p.variable} ${p.message}`).join('\n')}\n` +
        'Fix these environment variables (see docs/configuration.md) and start again.',
    );
    this.name = 'ConfigError';
  }
}

const URL_WITH_PASSWORD = ['DATABASE_URL', 'DATABASE_LISTEN_URL'];

/** `scheme://user:secret@host/db` → `scheme://user:***@host/db`; other values are shown as they are. */
function maskPassword(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  return value.replace(/^([a-z][a-z0-9+.-]*:\/\/[^:/@]*):[^@]*@/i, '$1:***@');
}

/** Parses an environment; throws ConfigError naming every bad variable. */
export function parseEnv(env: Record<string, string | undefined>): RawEnv {
  const result = envSchema.safeParse(env);
  if (!result.success) {
    throw new ConfigError(
      result.error.issues.map((issue) => {
        const variable = String(issue.path[0] ?? 'environment');
        // A connection URL is shown with its password masked: the rest is what the operator needs to see the mistake.
        const got = URL_WITH_PASSWORD.includes(variable) ? maskPassword(env[variable]) : env[variable];
        const shown = got === undefined ? '' : ` (got ${JSON.stringify(got.length > 80 ? `${got.slice(0, 80)}…` : got)})`;
        const secret = [
          'SESSION_SECRET',
          'VERIFICATION_KEY',
          'ADMIN_PASSWORD',
          'SMTP_URL',
          'MEDIA_S3_ACCESS_KEY_ID',
          'MEDIA_S3_SECRET_ACCESS_KEY',
          'VEROTEL_SIGNATURE_KEY',
          'METRICS_TOKEN',
        ].includes(variable);
        const message = secret ? issue.message : `${issue.message}${shown}`;
        return { variable, message };
      }),
    );
  }
  return result.data;
}
