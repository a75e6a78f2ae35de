/**
 * The grounds a moderation decision can rest on: a rule of the Community
 * Standards (linked to its section) or a law. A statement of reasons
 * (DSA Art. 17) names one of these, so members can read the rule they are
 * said to have broken. No imports: the browser bundle reads it too.
 */

export const DECISION_GROUNDS = [
  'standards-age-and-consent',
  'standards-what-you-can-share',
  'standards-labelling',
  'standards-prohibited-content',
  'standards-behaviour',
  'standards-verification',
  'law-take-it-down',
  'law-copyright-dmca',
  'law-child-protection',
  'law-illegal-content',
  'law-records-2257',
] as const;
export type DecisionGround = (typeof DECISION_GROUNDS)[number];

export interface GroundInfo {
  kind: 'standards' | 'law';
  /** Short name shown in the statement of reasons and the admin pickers. */
  label: string;
  /** Where the member can read the rule: a section of our policies, or the law's citation. */
  reference: string;
  /** A link on this site, when the rule is ours or explained here. */
  href: string | null;
}

export const GROUND_INFO: Record<DecisionGround, GroundInfo> = {
  'standards-age-and-consent': {
    kind: 'standards',
    label: 'Consent and age of everyone shown',
    reference: 'Community Standards: Consent and age of everyone shown',
    href: '/community-standards#consent-and-age-of-everyone-shown',
  },
  'standards-what-you-can-share': {
    kind: 'standards',
    label: 'What you can share',
    reference: 'Community Standards: What you can share',
    href: '/community-standards#what-you-can-share',
  },
  'standards-labelling': {
    kind: 'standards',
    label: 'Labelling your videos',
    reference: 'Community Standards: Labelling your videos',
    href: '/community-standards#labelling-your-videos',
  },
  'standards-prohibited-content': {
    kind: 'standards',
    label: 'Prohibited content',
    reference: 'Community Standards: Prohibited content',
    href: '/community-standards#prohibited-content',
  },
  'standards-behaviour': {
    kind: 'standards',
    label: 'How we treat each other',
    reference: 'Community Standards: How we treat each other',
    href: '/community-standards#how-we-treat-each-other',
  },
  'standards-verification': {
    kind: 'standards',
    label: 'Verified uploaders and performer records',
    reference: 'Community Standards: Consent and age of everyone shown',
    href: '/community-standards#consent-and-age-of-everyone-shown',
  },
  'law-take-it-down': {
    kind: 'law',
    label: 'Intimate images shared without consent',
    reference: 'TAKE IT DOWN Act (47 U.S.C. § 223a) and similar laws',
    href: '/report-content',
  },
  'law-copyright-dmca': {
    kind: 'law',
    label: 'Copyright infringement',
    reference: 'Digital Millennium Copyright Act, 17 U.S.C. § 512',
    href: '/copyright-policy',
  },
  'law-child-protection': {
    kind: 'law',
    label: 'Depiction of a minor',
    reference: '18 U.S.C. § 2252 and the child protection laws of every country we serve',
    href: '/community-standards#consent-and-age-of-everyone-shown',
  },
  'law-illegal-content': {
    kind: 'law',
    label: 'Illegal content',
    reference: 'The law of the country where it was reported (DSA Art. 16 notice)',
    href: '/community-standards#prohibited-content',
  },
  'law-records-2257': {
    kind: 'law',
    label: 'Missing age and consent records',
    reference: '18 U.S.C. § 2257 record-keeping requirements',
    href: '/2257',
  },
};
