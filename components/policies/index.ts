import type { ReactNode } from 'react';

import type { OperatorInfo } from '@/lib/operator';

import CommunityStandards from './CommunityStandards';
import CookiePolicy from './CookiePolicy';
import CopyrightPolicy from './CopyrightPolicy';
import LgbtqSupport from './LgbtqSupport';
import PrivacyPolicy from './PrivacyPolicy';
import RecordsCompliance from './RecordsCompliance';
import TermsOfUse from './TermsOfUse';

export interface PolicyEntry {
  title: string;
  /** At most 160 characters; used as the page's meta description. */
  description: string;
  /** ISO date (YYYY-MM-DD) of the last change to the text. */
  lastUpdated: string;
  Component: (props: { operator: OperatorInfo }) => ReactNode;
}

/** The policy pages, each served at /<slug>. */
export const POLICIES = {
  'community-standards': {
    title: 'Community Standards',
    description:
      'What you can share, what is never allowed, and how moderation, reporting and appeals work. Consent and 18+ come first.',
    lastUpdated: '2026-11-25',
    Component: CommunityStandards,
  },
  'privacy-policy': {
    title: 'Privacy Policy',
    description:
      'What personal data we collect, why, who receives it and how long we keep it. No selling, no ad trackers, no third-party analytics.',
    lastUpdated: '2026-11-21',
    Component: PrivacyPolicy,
  },
  'terms-of-use': {
    title: 'Terms of Use',
    description:
      'The rules for using the site: eligibility, accounts, your content and licence, VIP membership, bans, liability and governing law.',
    lastUpdated: '2026-11-21',
    Component: TermsOfUse,
  },
  'copyright-policy': {
    title: 'Copyright Policy',
    description:
      'How to send a DMCA takedown notice or counter-notice, who our designated agent is, and our repeat-infringer policy.',
    lastUpdated: '2026-11-25',
    Component: CopyrightPolicy,
  },
  'cookie-policy': {
    title: 'Cookie Policy',
    description:
      'Every cookie and browser storage entry the site uses, and why. No advertising, analytics or third-party cookies.',
    lastUpdated: '2026-11-21',
    Component: CookiePolicy,
  },
  'lgbtq-support': {
    title: 'LGBTQ+ Support',
    description:
      'Crisis lines, LGBTQ+ peer support and resources for exploring gender and sexuality safely, in the US, UK, Australia and beyond.',
    lastUpdated: '2026-11-21',
    Component: LgbtqSupport,
  },
  '2257': {
    title: '18 U.S.C. 2257 Record-Keeping Requirements Compliance Statement',
    description:
      'Everyone shown is 18 or older and verified; the records 18 U.S.C. 2257 requires are kept by our custodian of records, named here.',
    lastUpdated: '2026-11-25',
    Component: RecordsCompliance,
  },
} as const satisfies Record<string, PolicyEntry>;

export type PolicySlug = keyof typeof POLICIES;
