/**
 * Notices from anyone (DSA Art. 16, TAKE IT DOWN Act) and the DMCA forms
 * (17 U.S.C. 512(c)(3) notices, 512(g)(3) counter-notices), shared by the
 * forms, the API and tests. Limits count characters as people do (an emoji
 * is one), and every text field goes through `text`/`multilineText`, so
 * control characters and NUL never reach the database.
 */
import { NOTICE_REASONS } from '@/lib/report-reasons';
import { characterCount, multilineText, text } from '@/lib/validation/common';
import { z } from '@/lib/validation/zod';

export const NOTICE_DETAILS_MAX = 2000;
export const NOTICE_NAME_MAX = 200;
export const NOTICE_ADDRESS_MAX = 500;

export const NOTICE_MESSAGES = {
  video: 'Enter the address of the video',
  reason: 'Choose what is wrong with the video',
  copyright: 'Copyright complaints need the fields the law asks for. Please use the copyright notice form at /copyright/notice.',
  details: 'Explain why the video should come down',
  name: 'Enter your name',
  email: 'Enter an email address we can reply to',
  signature: 'Type your full name as your signature',
  goodFaith: 'Please confirm the declaration of good faith',
  phone: 'Enter a phone number we can reach you on',
  address: 'Enter your postal address',
  work: 'Describe the copyrighted work',
  perjury: 'Please confirm the statement under penalty of perjury',
  material: 'Say which video was removed and where it was',
  mistake: 'Please confirm, under penalty of perjury, that the video was removed by mistake or misidentification',
  jurisdiction: 'Please consent to the court’s jurisdiction and to accept service',
  token: 'This link is not valid. Open the whole link from the email.',
  lawsuit: 'Name the court and the case number',
  sent: 'Thank you. We have received your notice and emailed you a reference. We will tell you what we decide.',
} as const;

const limit = (max: number, label: string) => (value: string) =>
  characterCount(value) <= max || `${label} must be at most ${max} characters`;
const required = (message: string, max: number, label: string) =>
  text(message)
    .trim()
    .min(1, message)
    .refine((value) => characterCount(value) <= max, { message: `${label} must be at most ${max} characters` });
const requiredLong = (message: string, max: number, label: string) =>
  multilineText(message)
    .trim()
    .min(1, message)
    .refine((value) => limit(max, label)(value) === true, { message: `${label} must be at most ${max} characters` });
const email = z
  .string({ error: NOTICE_MESSAGES.email })
  .trim()
  .min(1, NOTICE_MESSAGES.email)
  .max(254, 'That email address is not valid')
  .pipe(z.email('That email address is not valid'))
  .transform((value) => value.toLowerCase());
const confirmed = (message: string) => z.literal(true, { error: message });
const phone = text(NOTICE_MESSAGES.phone)
  .trim()
  .min(1, NOTICE_MESSAGES.phone)
  .max(40, 'That phone number is not valid')
  .regex(/^\+?[0-9 ().-]{5,40}$/, 'That phone number is not valid: use digits, spaces and + ( ) - only');
const video = text(NOTICE_MESSAGES.video).trim().min(1, NOTICE_MESSAGES.video).max(500, 'That video address is too long');

/** POST /api/notices: a notice from anyone about a video. */
export const noticeSchema = z
  .object({
    video,
    reason: z.enum(NOTICE_REASONS, { error: NOTICE_MESSAGES.reason }),
    details: requiredLong(NOTICE_MESSAGES.details, NOTICE_DETAILS_MAX, 'Details'),
    name: required(NOTICE_MESSAGES.name, NOTICE_NAME_MAX, 'Your name'),
    email,
    signature: required(NOTICE_MESSAGES.signature, NOTICE_NAME_MAX, 'The signature'),
    goodFaith: confirmed(NOTICE_MESSAGES.goodFaith),
  })
  .superRefine((value, context) => {
    if (value.reason === 'copyright') context.addIssue({ code: 'custom', path: ['reason'], message: NOTICE_MESSAGES.copyright });
  });
export type NoticeInput = z.infer<typeof noticeSchema>;

/** POST /api/copyright/notices: 17 U.S.C. 512(c)(3)(A) (i) signature, (ii) the work, (iii) the material, (iv) contact, (v) good faith, (vi) accuracy under penalty of perjury. */
export const dmcaNoticeSchema = z.object({
  video,
  work: requiredLong(NOTICE_MESSAGES.work, NOTICE_DETAILS_MAX, 'The description of the work'),
  name: required(NOTICE_MESSAGES.name, NOTICE_NAME_MAX, 'Your name'),
  address: requiredLong(NOTICE_MESSAGES.address, NOTICE_ADDRESS_MAX, 'The address'),
  phone,
  email,
  signature: required(NOTICE_MESSAGES.signature, NOTICE_NAME_MAX, 'The signature'),
  goodFaith: confirmed(NOTICE_MESSAGES.goodFaith),
  perjury: confirmed(NOTICE_MESSAGES.perjury),
});
export type DmcaNoticeInput = z.infer<typeof dmcaNoticeSchema>;

/** POST /api/copyright/counter-notices: 17 U.S.C. 512(g)(3) (A) signature, (B) the material and where it was, (C) mistake under penalty of perjury, (D) contact and consent to jurisdiction. */
export const counterNoticeSchema = z.object({
  video,
  material: requiredLong(NOTICE_MESSAGES.material, NOTICE_DETAILS_MAX, 'The description'),
  name: required(NOTICE_MESSAGES.name, NOTICE_NAME_MAX, 'Your name'),
  address: requiredLong(NOTICE_MESSAGES.address, NOTICE_ADDRESS_MAX, 'The address'),
  phone,
  signature: required(NOTICE_MESSAGES.signature, NOTICE_NAME_MAX, 'The signature'),
  mistake: confirmed(NOTICE_MESSAGES.mistake),
  jurisdiction: confirmed(NOTICE_MESSAGES.jurisdiction),
});
export type CounterNoticeInput = z.infer<typeof counterNoticeSchema>;

/** POST /api/copyright/lawsuits: the claimant's single-use link from the counter-notice email. */
export const lawsuitSchema = z.object({
  token: text(NOTICE_MESSAGES.token).trim().min(1, NOTICE_MESSAGES.token).max(100, NOTICE_MESSAGES.token),
  details: requiredLong(NOTICE_MESSAGES.lawsuit, NOTICE_DETAILS_MAX, 'The details'),
});
export type LawsuitInput = z.infer<typeof lawsuitSchema>;

/** POST /api/admin/copyright/takedowns/{id}/lawsuit: an admin records a lawsuit the claimant reported another way. */
export const adminLawsuitSchema = z.object({ details: requiredLong(NOTICE_MESSAGES.lawsuit, NOTICE_DETAILS_MAX, 'The details') });
export type AdminLawsuitInput = z.infer<typeof adminLawsuitSchema>;

/** `{id}` of /api/admin/copyright/takedowns/{id}/…. */
export const takedownIdParamsSchema = z.object({ id: z.uuid({ error: 'That is not a valid takedown id.' }) });
