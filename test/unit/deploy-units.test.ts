import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { loadConfig } from '@/lib/config/server';
import { envSchema } from '@/lib/config/schema';

import { NGINX_BINARY, nginxArgs, renderNginxConf } from '../../scripts/lib/nginx-conf';

/*
 * deploy/: the systemd units, their environment file and the nginx template (docs/operations.md).
 * What an operator copies must be complete and consistent with the app: every setting the example
 * names exists, the filled-in example is a valid production configuration, the units write only
 * where that configuration keeps its data, and the nginx template parses.
 */

const DEPLOY = path.join(process.cwd(), 'deploy');
const UNITS = ['chrysalis-web.service', 'chrysalis-web@.service', 'chrysalis-worker@.service'];

/** A unit file as sections of key → values (a key may repeat, as systemd allows). */
function parseUnit(text: string): Record<string, Record<string, string[]>> {
  const sections: Record<string, Record<string, string[]>> = {};
  let current: Record<string, string[]> | undefined;
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (!line || line.startsWith('#') || line.startsWith(';')) continue;
    const header = /^\[(.+)\]$/.exec(line);
    if (header) {
      current = sections[header[1]!] ??= {};
      continue;
    }
    const assignment = /^([A-Za-z]+)=(.*)$/.exec(line);
    if (!assignment || !current) throw new Error(`not a unit file line: ${line}`);
    (current[assignment[1]!] ??= []).push(assignment[2]!);
  }
  return sections;
}

/** The environment file: active KEY=value lines, and the names of commented-out ones (`# KEY=…`). */
function parseEnvFile(text: string): { active: Record<string, string>; commented: string[] } {
  const active: Record<string, string> = {};
  const commented: string[] = [];
  for (const line of text.split('\n')) {
    const set = /^([A-Z][A-Z0-9_]*)=(.*)$/.exec(line);
    if (set) {
      expect(active).not.toHaveProperty(set[1]!);
      active[set[1]!] = set[2]!;
    }
    const off = /^#\s*([A-Z][A-Z0-9_]*)=/.exec(line);
    if (off) commented.push(off[1]!);
  }
  return { active, commented };
}

const envExample = parseEnvFile(readFileSync(path.join(DEPLOY, 'chrysalis.env.example'), 'utf8'));
/** What an operator fills the blanks with (secrets are never in the example). */
const filled = {
  ...envExample.active,
  SESSION_SECRET: 'a'.repeat(64),
  VERIFICATION_KEY: 'b'.repeat(64),
};

describe('deploy/chrysalis.env.example', () => {
  it('names only settings the configuration schema knows', () => {
    const known = Object.keys(envSchema.shape);
    for (const name of [...Object.keys(envExample.active), ...envExample.commented]) expect(known).toContain(name);
  });

  it('leaves the secrets blank, and is a valid production configuration once they are filled in', () => {
    expect(envExample.active.SESSION_SECRET).toBe('');
    expect(envExample.active.VERIFICATION_KEY).toBe('');
    const config = loadConfig(filled);
    expect(config.nodeEnv).toBe('production');
    expect(config.trustProxy).toBe(1);
    expect(config.mediaOffload).toEqual({ mode: 'x-accel', accelPrefix: '/_media/' });
    expect(config.databaseUrl).toMatch(/^postgres:\/\//);
    expect(config.operator.recordsCustodianConfigured).toBe(true);
  });
});

describe.each(UNITS)('deploy/%s', (name) => {
  const unit = parseUnit(readFileSync(path.join(DEPLOY, name), 'utf8'));
  const service = unit.Service!;
  const one = (key: string) => {
    expect(service[key]).toHaveLength(1);
    return service[key]![0]!;
  };

  it('runs a script of this repository as an unprivileged user, with the settings file', () => {
    expect(one('User')).toBe('chrysalis');
    expect(one('EnvironmentFile')).toBe('/etc/chrysalis/chrysalis.env');
    const workingDirectory = one('WorkingDirectory');
    const script = one('ExecStart')
      .split(' ')
      .find((word) => word.startsWith('scripts/'));
    expect(script).toBeDefined();
    expect(existsSync(path.join(process.cwd(), script!))).toBe(true);
    // tsx and its `#!/usr/bin/env node` find the project's Node 24 first.
    expect(service.Environment).toContainEqual(`PATH=${workingDirectory}/node_modules/.bin:/usr/local/bin:/usr/bin:/bin`);
    expect(one('ExecStart')).toContain(`${workingDirectory}/node_modules/.bin/tsx `);
    if (name.startsWith('chrysalis-web@')) expect(one('ExecStart')).toMatch(/^\/usr\/bin\/env PORT=%i /);
    expect(unit.Install!.WantedBy).toEqual(['multi-user.target']);
  });

  it('restarts on failure and is hardened, writing only to DATA_DIR (and the web build cache)', () => {
    expect(one('Restart')).toBe('on-failure');
    for (const [key, value] of [
      ['NoNewPrivileges', 'yes'],
      ['ProtectSystem', 'strict'],
      ['PrivateTmp', 'yes'],
      ['ProtectHome', 'yes'],
      ['CapabilityBoundingSet', ''],
    ] as const) {
      expect([key, one(key)]).toEqual([key, value]);
    }
    // V8's JIT needs writable executable memory.
    expect(service.MemoryDenyWriteExecute).toBeUndefined();
    const writable = one('ReadWritePaths').split(' ');
    expect(writable).toContain(loadConfig(filled).dataDir);
    expect(`/var/lib/${one('StateDirectory')}`).toBe(loadConfig(filled).dataDir);
    const expected = name.startsWith('chrysalis-web')
      ? [loadConfig(filled).dataDir, `${one('WorkingDirectory')}/.next`]
      : [loadConfig(filled).dataDir];
    expect(writable).toEqual(expected);
  });

  const analyze = spawnSync('systemd-analyze', ['--version']).status === 0;
  (analyze ? it : it.skip)('passes systemd-analyze verify (with this checkout in place of /opt/chrysalis)', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'chrysalis-units-'));
    try {
      const text = readFileSync(path.join(DEPLOY, name), 'utf8')
        .replaceAll('/opt/chrysalis', process.cwd())
        .replace(/^(User|Group)=.*$/gm, '$1=root');
      const file = path.join(dir, name.replace('@', '@3000'));
      writeFileSync(file, text);
      const result = spawnSync('systemd-analyze', ['verify', '--man=no', file], { encoding: 'utf8' });
      // Only complaints about this unit count: the host's own units may have their own.
      const ours = `${result.stdout}${result.stderr}`.split('\n').filter((line) => line.includes(path.basename(file)));
      expect(ours).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('deploy/nginx.conf', () => {
  const nginx = existsSync(NGINX_BINARY);
  (nginx ? it : it.skip)('parses once made concrete, with the settings the docs promise', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'chrysalis-nginx-conf-'));
    try {
      const conf = renderNginxConf({
        listenPort: 3157,
        appPort: 3156,
        mediaDir: path.join(dir, 'media'),
        maxUploadBytes: 4 * 1024 ** 3,
        workDir: dir,
      });
      expect(conf).toContain('client_max_body_size 4097m;');
      writeFileSync(path.join(dir, 'nginx.conf'), conf);
      const args = nginxArgs(dir).map((arg) => arg.replace('daemon off; ', ''));
      execFileSync(NGINX_BINARY, ['-t', '-q', ...args], { stdio: 'pipe' });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('sizes the upload location from MAX_UPLOAD_BYTES and streams it', () => {
    const template = readFileSync(path.join(DEPLOY, 'nginx.conf'), 'utf8');
    const upload = /location \/api\/videos\/upload \{([^}]*)\}/.exec(template)?.[1] ?? '';
    expect(upload).toContain('proxy_request_buffering off;');
    expect(
      renderNginxConf({ listenPort: 1, appPort: 2, mediaDir: '/m', maxUploadBytes: 100 * 1024 * 1024, workDir: '/w' }),
    ).toContain('client_max_body_size 101m;');
    // The client's address is appended, never passed on as sent (TRUST_PROXY=1).
    expect(template).toContain('proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;');
    expect(template).toMatch(/location \/_media\/ \{\s*internal;/);
  });

  it('sends uploads to the web processes on connections of their own, so a PATCH reaches the upload receiver', () => {
    const template = readFileSync(path.join(DEPLOY, 'nginx.conf'), 'utf8');
    const upload = /location \/api\/videos\/upload \{([^}]*)\}/.exec(template)?.[1] ?? '';
    expect(upload).toContain('proxy_pass http://chrysalis_uploads;');
    const uploads = /upstream chrysalis_uploads \{([^}]*)\}/.exec(template)?.[1] ?? '';
    expect(uploads).toContain('server 127.0.0.1:3000;');
    expect(uploads).not.toContain('keepalive');
    // Both upstreams point at the app made concrete.
    const conf = renderNginxConf({ listenPort: 1, appPort: 2345, mediaDir: '/m', maxUploadBytes: 1024, workDir: '/w' });
    expect(conf.match(/server 127\.0\.0\.1:2345;/g)).toHaveLength(2);
    expect(conf).not.toContain('127.0.0.1:3000');
  });
});
