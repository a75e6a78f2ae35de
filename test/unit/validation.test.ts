import fc from 'fast-check';

import { cleanText, multilineText, text } from '@/lib/validation/common';
import { isListVariant, listPageHref, listTitle, searchQuerySchema, uploadFieldsSchema } from '@/lib/validation/videos';
import {
  ageOn,
  changeEmailSchema,
  changePasswordSchema,
  loginSchema,
  registerSchema,
  RESERVED_USERNAMES,
  todayIso,
  usernameSchema,
} from '@/lib/validation/auth';

const TODAY = '2026-11-21';
const register = registerSchema(() => TODAY);
const valid = {
  username: 'Valid_User',
  email: 'valid@example.org',
  password: 'secret-pass',
  confirmPassword: 'secret-pass',
  dateOfBirth: '1990-01-01',
};
const firstMessage = (result: { success: boolean; error?: { issues: { message: string }[] } }) =>
  result.error?.issues[0]?.message;

describe('validation (property tests)', () => {
  it('accepts every username of 3–30 allowed characters and rejects any other character', () => {
    fc.assert(
      fc.property(
        fc.stringMatching(/^[A-Za-z0-9_.-]{3,30}$/).filter((name) => !RESERVED_USERNAMES.includes(name.toLowerCase())),
        (name) => {
          expect(usernameSchema.safeParse(name).success).toBe(true);
        },
      ),
    );
    for (const name of ['settings', 'Complete-Task']) {
      expect(firstMessage(usernameSchema.safeParse(name))).toBe('That username is not available. Please choose another.');
    }
    fc.assert(
      fc.property(fc.stringMatching(/^[A-Za-z0-9]{2,10}$/), fc.constantFrom(' ', '!', '@', '<', '/', 'é', '🦋'), (base, bad) => {
        expect(usernameSchema.safeParse(`${base}${bad}x`).success).toBe(false);
      }),
    );
  });

  it('accepts exactly the birth dates at least 18 years before today', () => {
    fc.assert(
      fc.property(fc.date({ min: new Date('1900-01-01'), max: new Date('2030-12-31'), noInvalidDate: true }), (date) => {
        const dob = date.toISOString().slice(0, 10);
        const result = register.safeParse({ ...valid, dateOfBirth: dob });
        const adult = dob <= TODAY && ageOn(dob, TODAY) >= 18;
        expect(result.success).toBe(adult);
        if (!adult)
          expect(firstMessage(result)).toBe(
            dob > TODAY ? 'Date of birth cannot be in the future' : 'You must be at least 18 years old',
          );
      }),
    );
  });

  it('turns 18 exactly on the 18th birthday', () => {
    expect(register.safeParse({ ...valid, dateOfBirth: '2008-11-21' }).success).toBe(true);
    expect(firstMessage(register.safeParse({ ...valid, dateOfBirth: '2008-11-22' }))).toBe('You must be at least 18 years old');
    // Leap-day birthdays count from 1 March in common years.
    expect(ageOn('2008-02-29', '2026-02-28')).toBe(17);
    expect(ageOn('2008-02-29', '2026-03-01')).toBe(18);
  });

  it('requires matching confirmations, whatever the passwords', () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 6, maxLength: 40 }),
        fc.string({ minLength: 1, maxLength: 40 }),
        (password, confirmation) => {
          fc.pre(password !== confirmation);
          expect(firstMessage(register.safeParse({ ...valid, password, confirmPassword: confirmation }))).toBe(
            'Passwords must match',
          );
          expect(
            firstMessage(
              changePasswordSchema.safeParse({ currentPassword: 'x', newPassword: password, confirmNewPassword: confirmation }),
            ),
          ).toBe('New passwords do not match.');
        },
      ),
    );
  });

  it('normalises emails to lower case and trims them, and compares new emails after that', () => {
    fc.assert(
      fc.property(fc.emailAddress(), (email) => {
        const parsed = loginSchema.safeParse({ email: `  ${email.toUpperCase()} `, password: 'x' });
        if (parsed.success) expect(parsed.data.email).toBe(email.toUpperCase().trim().toLowerCase());
      }),
    );
    expect(
      changeEmailSchema.safeParse({ currentPassword: 'x', newEmail: 'A@Example.org', confirmNewEmail: 'a@example.ORG' }).success,
    ).toBe(true);
    expect(
      firstMessage(
        changeEmailSchema.safeParse({ currentPassword: 'x', newEmail: 'a@example.org', confirmNewEmail: 'b@example.org' }),
      ),
    ).toBe('New emails do not match.');
  });

  it('formats today in UTC or local time', () => {
    expect(todayIso(new Date('2026-01-02T03:04:05Z'))).toBe('2026-01-02');
  });
});

describe('the shared text schema', () => {
  const CONTROL = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F]/;

  it('never lets a control character through, and keeps line breaks only where text is multi-line', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 200 }), (input) => {
        const single = text().parse(input);
        const multi = multilineText().parse(input);
        expect(single).not.toMatch(CONTROL);
        expect(single).not.toMatch(/[\n\r\u2028\u2029]/);
        expect(multi).not.toMatch(CONTROL);
        expect(multi).not.toMatch(/[\r\u2028\u2029]/);
        // Well-formed: it survives a round trip through UTF-8 unchanged.
        expect(Buffer.from(multi, 'utf8').toString('utf8')).toBe(multi);
      }),
      { numRuns: 2_000 },
    );
  });

  it.each([
    ['a\u0000b', 'ab', 'ab'],
    ['line one\r\nline two', 'line one line two', 'line one\nline two'],
    ['tab\there', 'tab here', 'tab\there'],
    ['</script >\u2028x', '</script > x', '</script >\nx'],
    ['lone \ud800 surrogate', 'lone \ufffd surrogate', 'lone \ufffd surrogate'],
    ['🏳️‍🌈 emoji stay', '🏳️‍🌈 emoji stay', '🏳️‍🌈 emoji stay'],
  ])('%j → %j (single line) and %j (multi-line)', (input, single, multi) => {
    expect(cleanText(input)).toBe(single);
    expect(cleanText(input, { multiline: true })).toBe(multi);
  });

  it('cleans before limits count, so a title of NULs is empty, not long', () => {
    expect(firstMessage(uploadFieldsSchema.safeParse({ title: '\u0000'.repeat(50), category: 'Sissy' }))).toBe(
      'Title is required',
    );
    expect(searchQuerySchema.parse({ q: 'sissy\u0000' }).q).toBe('sissy');
  });
});

describe('category and tag list titles and links', () => {
  it('names the order and the page, and keeps the plain list’s URL', () => {
    expect(listTitle('Sissy Videos', { sort: 'newest' }, 1)).toBe('Sissy Videos');
    expect(listTitle('#latex Videos', { sort: 'views', duration: 'short' }, 2)).toBe(
      '#latex Videos (Most viewed, Under 5 min), page 2',
    );
    expect(listTitle('Beta Videos', { sort: 'newest', duration: 'long' }, 1)).toBe('Beta Videos (Over 20 min)');
    expect(listPageHref('/category/Beta', { sort: 'newest' })).toBe('/category/Beta');
    expect(listPageHref('/tag/latex', { sort: 'likes', duration: 'medium' }, 3)).toBe(
      '/tag/latex?sort=likes&duration=medium&page=3',
    );
    expect(isListVariant({ sort: 'newest' })).toBe(false);
    expect(isListVariant({ sort: 'newest', duration: 'short' })).toBe(true);
    expect(isListVariant({ sort: 'longest' })).toBe(true);
  });
});
