import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';

import { SMTPServer } from 'smtp-server';

import { POST as register } from '@/app/api/auth/register/route';
import { installDatabase } from '@/lib/db';
import { resetLimiters } from '@/lib/server/rate-limit';

import { call, ORIGIN, registrationForm } from '../helpers/api';
import { createTestDatabase, type TestDatabase } from '../helpers/db';

/** A real SMTP server on loopback that keeps what it receives. */
function startCapture() {
  const received: { from: string; to: string[]; data: string }[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          data: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  return new Promise<{ port: number; received: typeof received; close: () => Promise<void> }>((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      resolve({
        port: (server.server.address() as AddressInfo).port,
        received,
        close: () => new Promise((done) => server.close(() => done())),
      });
    });
  });
}

describe('mail through SMTP', () => {
  let capture: Awaited<ReturnType<typeof startCapture>>;
  let database: TestDatabase;
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'chrysalis-smtp-'));

  beforeAll(async () => {
    capture = await startCapture();
    process.env.SMTP_URL = `smtp://127.0.0.1:${capture.port}`;
    process.env.MAIL_FROM = 'Chrysalis <hello@chrysalis.example>';
    process.env.SITE_URL = ORIGIN;
    process.env.DATA_DIR = dataDir;
    database = await createTestDatabase('pglite');
    installDatabase(database);
    resetLimiters();
  });
  afterAll(async () => {
    await capture.close();
    await database.destroy();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('delivers the verification email with text and HTML parts and a link built from SITE_URL', async () => {
    const response = await call(register, '/api/auth/register', {
      form: registrationForm({ username: 'SmtpUser', email: 'smtp.user@example.org' }),
    });
    expect(response.status).toBe(201);
    expect(capture.received).toHaveLength(1);
    const [mail] = capture.received;
    expect(mail!.from).toBe('hello@chrysalis.example');
    expect(mail!.to).toEqual(['smtp.user@example.org']);
    expect(mail!.data).toMatch(/^Subject: Verify your email for Chrysalis/m);
    expect(mail!.data).toMatch(/Content-Type: text\/plain/);
    expect(mail!.data).toMatch(/Content-Type: text\/html/);
    const unfolded = mail!.data.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
    expect(unfolded).toMatch(/http:\/\/localhost:3999\/api\/auth\/verify-email\?token=[A-Za-z0-9_-]{40,}/);
  });
});
