/**
 * deploy/nginx.conf made concrete for a test run: the values an operator
 * changes (marked CHANGE) replaced, logs and caches moved into a scratch
 * directory. Each replaced line must be in the template, so a template
 * edit that drops one fails the tests instead of testing something else.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';

export const NGINX_TEMPLATE = path.join(process.cwd(), 'deploy', 'nginx.conf');

export interface NginxValues {
  /** Where nginx listens (127.0.0.1). */
  listenPort: number;
  /** The app's PORT. */
  appPort: number;
  /** DATA_DIR/media of the app. */
  mediaDir: string;
  /** The app's MAX_UPLOAD_BYTES: the upload location takes that plus 1 MiB, as the template says. */
  maxUploadBytes: number;
  /** Scratch directory for logs, temp files and the static cache. */
  workDir: string;
}

const MiB = 1024 * 1024;

export function renderNginxConf(values: NginxValues, template = readFileSync(NGINX_TEMPLATE, 'utf8')): string {
  const { listenPort, appPort, mediaDir, maxUploadBytes, workDir } = values;
  const replacements: [string, string][] = [
    ['user www-data;', process.getuid?.() === 0 ? 'user root;' : ''],
    ['access_log /var/log/nginx/chrysalis.access.log;', `access_log ${path.join(workDir, 'access.log')};`],
    ['server 127.0.0.1:3000;', `server 127.0.0.1:${appPort};`],
    ['proxy_cache_path /var/lib/nginx/chrysalis-static ', `proxy_cache_path ${path.join(workDir, 'static-cache')} `],
    ['        listen 80;\n        listen [::]:80;\n        # TLS', `        listen 127.0.0.1:${listenPort};\n        # TLS`],
    ['client_max_body_size 4097m;', `client_max_body_size ${Math.ceil(maxUploadBytes / MiB) + 1}m;`],
    ['alias /var/lib/chrysalis/media/;', `alias ${mediaDir.replace(/\/*$/, '/')};`],
    // Temp files in the scratch directory too (Debian's are under /var/lib/nginx, root's own).
    [
      'http {\n',
      `http {\n${['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((kind) => `    ${kind}_temp_path ${path.join(workDir, `${kind}-temp`)};\n`).join('')}`,
    ],
  ];
  let conf = template;
  for (const [from, to] of replacements) {
    if (!conf.includes(from))
      throw new Error(`deploy/nginx.conf no longer contains ${JSON.stringify(from)}: update scripts/lib/nginx-conf.ts with it`);
    conf = conf.replaceAll(from, to);
  }
  return conf;
}

/** Arguments that run nginx in the foreground on a rendered file in workDir, logging errors to stderr. */
export function nginxArgs(workDir: string, confFile = 'nginx.conf'): string[] {
  return ['-p', workDir, '-c', confFile, '-g', `daemon off; pid ${path.join(workDir, 'nginx.pid')}; error_log stderr;`];
}

export const NGINX_BINARY = process.env.NGINX_PATH ?? '/usr/sbin/nginx';
