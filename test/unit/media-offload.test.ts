import { GetObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';

import { ConfigError, loadConfig } from '@/lib/config/server';
import { parseEnv } from '@/lib/config/schema';
import { contentSecurityPolicy } from '@/lib/front/content-security-policy';
import { presignedMediaOrigin } from '@/lib/front/media-origin';

const S3 = { MEDIA_S3_BUCKET: 'chrysalis-media', MEDIA_S3_ACCESS_KEY_ID: 'key', MEDIA_S3_SECRET_ACCESS_KEY: 'secret' };

function problems(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
    return [];
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    return error.problems.map((problem) => `${problem.variable} ${problem.message}`);
  }
}

describe('MEDIA_OFFLOAD settings (decision 021)', () => {
  it('defaults to the app sending media itself', () => {
    expect(loadConfig({}).mediaOffload).toEqual({ mode: 'none' });
  });

  it('x-accel takes the internal location, /_media/ by default', () => {
    expect(loadConfig({ MEDIA_OFFLOAD: 'x-accel' }).mediaOffload).toEqual({ mode: 'x-accel', accelPrefix: '/_media/' });
    expect(loadConfig({ MEDIA_OFFLOAD: ' X-Accel ', MEDIA_ACCEL_PREFIX: '/internal/media/' }).mediaOffload).toEqual({
      mode: 'x-accel',
      accelPrefix: '/internal/media/',
    });
  });

  it('refuses an internal location nginx could not match as a prefix', () => {
    for (const prefix of ['_media/', '/_media', '/a/../b/', '/with space/', 'http://x/']) {
      expect(problems({ MEDIA_OFFLOAD: 'x-accel', MEDIA_ACCEL_PREFIX: prefix })).toEqual([
        expect.stringMatching(/^MEDIA_ACCEL_PREFIX must /),
      ]);
    }
  });

  it('redirect needs a bucket, takes the URL lifetime, and x-accel refuses one', () => {
    expect(loadConfig({ ...S3, MEDIA_OFFLOAD: 'redirect' }).mediaOffload).toEqual({ mode: 'redirect', redirectSeconds: 3600 });
    expect(loadConfig({ ...S3, MEDIA_OFFLOAD: 'redirect', MEDIA_REDIRECT_SECONDS: '300' }).mediaOffload).toEqual({
      mode: 'redirect',
      redirectSeconds: 300,
    });
    expect(problems({ MEDIA_OFFLOAD: 'redirect' })).toEqual([
      expect.stringContaining('MEDIA_OFFLOAD redirect needs S3 media storage'),
    ]);
    expect(problems({ ...S3, MEDIA_OFFLOAD: 'x-accel' })).toEqual([
      expect.stringContaining('MEDIA_OFFLOAD x-accel serves media from the local disk'),
    ]);
    expect(problems({ ...S3, MEDIA_OFFLOAD: 'redirect', MEDIA_REDIRECT_SECONDS: '604801' })).toEqual([
      expect.stringMatching(/^MEDIA_REDIRECT_SECONDS must be a whole number of seconds from 60 to 604800/),
    ]);
    expect(problems({ MEDIA_OFFLOAD: 'sendfile' })).toEqual([
      expect.stringMatching(/^MEDIA_OFFLOAD must be none .* \(got "sendfile"\)$/),
    ]);
  });
});

describe('the bucket origin the Content-Security-Policy allows under MEDIA_OFFLOAD=redirect', () => {
  // What the AWS SDK really signs (locally, no request), against what the policy names.
  const cases: [string, Record<string, string>][] = [
    ['AWS, virtual-hosted', { ...S3, MEDIA_S3_REGION: 'eu-west-3' }],
    ['AWS, us-east-1', S3],
    ['AWS, a bucket name with dots', { ...S3, MEDIA_S3_BUCKET: 'media.example.org', MEDIA_S3_REGION: 'eu-central-1' }],
    ['AWS, forced path style', { ...S3, MEDIA_S3_FORCE_PATH_STYLE: 'true' }],
    ['MinIO, path style by default', { ...S3, MEDIA_S3_ENDPOINT: 'http://minio:9000' }],
    ['R2', { ...S3, MEDIA_S3_REGION: 'auto', MEDIA_S3_ENDPOINT: 'https://0123abcd.r2.cloudflarestorage.com' }],
    [
      'an endpoint with virtual hosts',
      { ...S3, MEDIA_S3_ENDPOINT: 'https://s3.example.net', MEDIA_S3_FORCE_PATH_STYLE: 'false' },
    ],
  ];

  it.each(cases)('%s', async (_name, variables) => {
    const env = { ...variables, MEDIA_OFFLOAD: 'redirect' };
    const { mediaS3 } = loadConfig(env);
    const client = new S3Client({
      region: mediaS3!.region,
      endpoint: mediaS3!.endpoint,
      forcePathStyle: mediaS3!.forcePathStyle,
      credentials: { accessKeyId: 'key', secretAccessKey: 'secret' },
    });
    const signed = new URL(
      await getSignedUrl(client, new GetObjectCommand({ Bucket: mediaS3!.bucket, Key: 'videos/a/web.mp4' }), { expiresIn: 60 }),
    );
    const origin = presignedMediaOrigin(parseEnv(env));
    expect(origin).toBe(signed.origin);
    const policy = contentSecurityPolicy([], { dev: false, mediaOrigin: origin });
    for (const directive of ['img-src', 'media-src', 'connect-src']) {
      expect(policy).toMatch(new RegExp(`${directive} [^;]*${origin!.replace(/[.]/g, '\\.')}(;| )`));
    }
  });

  it('is nothing without redirect, so the policy stays same-origin', () => {
    expect(presignedMediaOrigin(parseEnv(S3))).toBeUndefined();
    expect(presignedMediaOrigin(parseEnv({ MEDIA_OFFLOAD: 'x-accel' }))).toBeUndefined();
    expect(contentSecurityPolicy([], { dev: false })).toContain("media-src 'self' blob:;");
  });
});
