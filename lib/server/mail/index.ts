import 'server-only';

import { randomUUID } from 'node:crypto';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';

import nodemailer, { type Transporter } from 'nodemailer';

import { getConfig, type ServerConfig } from '@/lib/config/server';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
}

/**
 * Sends through SMTP_URL when set; otherwise nodemailer renders the message
 * (headers, text and HTML parts) and it is written as one .eml file in
 * DATA_DIR/outbox, which any mail client opens, so local setups and tests
 * see exactly what would have been sent.
 */
export async function sendMail(message: MailMessage, config: ServerConfig = getConfig()): Promise<void> {
  const envelope = { from: config.mailFrom, ...message };
  if (config.smtpUrl) {
    await smtpTransport(config.smtpUrl).sendMail(envelope);
    return;
  }
  const rendered = await outboxTransport.sendMail(envelope);
  const outbox = path.join(config.dataDir, 'outbox');
  await mkdir(outbox, { recursive: true });
  const file = path.join(outbox, `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomUUID().slice(0, 8)}.eml`);
  // Written under a temp name and renamed, so readers never see half a message.
  await writeFile(`${file}.tmp`, rendered.message as Buffer);
  await rename(`${file}.tmp`, file);
}

const outboxTransport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });

const smtpTransports = new Map<string, Transporter>();
function smtpTransport(url: string): Transporter {
  let transport = smtpTransports.get(url);
  if (!transport) {
    transport = nodemailer.createTransport(url);
    smtpTransports.set(url, transport);
  }
  return transport;
}

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** A short transactional email with one call-to-action link, in text and HTML. */
export function linkEmail(options: {
  to: string;
  subject: string;
  greeting: string;
  lines: string[];
  action: string;
  url: string;
  footer: string;
}): MailMessage {
  const { siteName } = getConfig();
  const text = [
    options.greeting,
    '',
    ...options.lines,
    '',
    `${options.action}: ${options.url}`,
    '',
    options.footer,
    '',
    `— ${siteName}`,
  ].join('\n');
  const html = `<!doctype html><html><body style="margin:0;padding:24px;background:#0d0c12;color:#f4f2f8;font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif">
<div style="max-width:520px;margin:0 auto;background:#1b1824;border-radius:16px;padding:32px">
<h1 style="margin:0 0 16px;font-size:22px;color:#ff8cc3">${escapeHtml(siteName)}</h1>
<p>${escapeHtml(options.greeting)}</p>
${options.lines.map((line) => `<p>${escapeHtml(line)}</p>`).join('\n')}
<p style="margin:28px 0"><a href="${escapeHtml(options.url)}" style="background:#ff4fa3;color:#fff;text-decoration:none;padding:12px 22px;border-radius:999px;font-weight:700">${escapeHtml(options.action)}</a></p>
<p style="font-size:13px;color:#b7b1c6">If the button does not work, copy this link into your browser:<br><span style="word-break:break-all">${escapeHtml(options.url)}</span></p>
<p style="font-size:13px;color:#b7b1c6">${escapeHtml(options.footer)}</p>
</div></body></html>`;
  return { to: options.to, subject: options.subject, text, html };
}
