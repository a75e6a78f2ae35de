/**
 * Where browsers fetch media from under MEDIA_OFFLOAD=redirect: the origin of
 * the bucket's presigned URLs, which the Content-Security-Policy must allow
 * for images, video and hls.js's requests (decision 021). It follows how the
 * AWS SDK addresses a bucket: path-style on the endpoint (the default with
 * MEDIA_S3_ENDPOINT), else the bucket as a subdomain when its name allows.
 *
 * Plain Node: proxy.ts and scripts/serve.ts both build the policy.
 */
import { parseEnv, type RawEnv } from '../config/schema';

type OffloadEnv = Pick<
  RawEnv,
  'MEDIA_OFFLOAD' | 'MEDIA_S3_BUCKET' | 'MEDIA_S3_REGION' | 'MEDIA_S3_ENDPOINT' | 'MEDIA_S3_FORCE_PATH_STYLE'
>;

/** A bucket name that can be a DNS label over https (no dots, upper case or underscores). */
const VIRTUAL_HOSTABLE = /^[a-z0-9][a-z0-9-]{1,61}[a-z0-9]$/;

export function presignedMediaOrigin(env: OffloadEnv): string | undefined {
  if (env.MEDIA_OFFLOAD !== 'redirect' || !env.MEDIA_S3_BUCKET) return undefined;
  const bucket = env.MEDIA_S3_BUCKET;
  const pathStyle = env.MEDIA_S3_FORCE_PATH_STYLE ?? Boolean(env.MEDIA_S3_ENDPOINT);
  if (env.MEDIA_S3_ENDPOINT) {
    const endpoint = new URL(env.MEDIA_S3_ENDPOINT);
    return pathStyle ? endpoint.origin : `${endpoint.protocol}//${bucket}.${endpoint.host}`;
  }
  const host = `s3.${env.MEDIA_S3_REGION}.amazonaws.com`;
  return !pathStyle && VIRTUAL_HOSTABLE.test(bucket) ? `https://${bucket}.${host}` : `https://${host}`;
}

let fromProcess: { value: string | undefined } | undefined;

/** The same, from this process's environment (validated at start), worked out once. */
export function processMediaOrigin(): string | undefined {
  fromProcess ??= { value: presignedMediaOrigin(parseEnv(process.env)) };
  return fromProcess.value;
}
