/**
 * Who runs this Chrysalis instance. Policy pages name the operator, the
 * contact address and the DMCA agent; each value comes from configuration
 * (OPERATOR_NAME, OPERATOR_EMAIL, OPERATOR_ADDRESS, DMCA_AGENT_NAME,
 * DMCA_AGENT_EMAIL, DMCA_AGENT_ADDRESS). When a value is not configured the
 * field holds a bracketed placeholder that says which variable to set, so an
 * unconfigured deployment is obvious on the page instead of silently wrong.
 */
export interface OperatorInfo {
  /** Product name shown to users, from SITE_NAME (default "Chrysalis"). */
  siteName: string;
  /** Canonical origin, from SITE_URL, without a trailing slash. */
  siteUrl: string;
  /** Legal name of the company or person running the site. */
  name: string;
  /** General contact address (privacy requests, reports, questions). */
  email: string;
  /** Postal address of the operator. */
  address: string;
  /** Designated DMCA agent: name, email and postal address. */
  dmcaAgentName: string;
  dmcaAgentEmail: string;
  dmcaAgentAddress: string;
  /** Copyright rules the policy states (REPEAT_INFRINGER_STRIKES, COUNTER_NOTICE_WAIT_BUSINESS_DAYS; decision 016). */
  repeatInfringerStrikes: number;
  counterNoticeWaitBusinessDays: number;
  /** Custodian of records for 18 U.S.C. 2257 (RECORDS_CUSTODIAN_NAME, RECORDS_CUSTODIAN_ADDRESS), shown on /2257. */
  recordsCustodianName: string;
  recordsCustodianAddress: string;
  /** Both custodian values are set (the page says plainly when they are not). */
  recordsCustodianConfigured: boolean;
  /** Days identity documents are kept after an account ends (VERIFICATION_RETENTION_DAYS), for the Privacy Policy. */
  verificationRetentionDays: number;
  /** Years a publishing uploader's 2257 records are kept after the account ends (RECORDS_RETENTION_YEARS). */
  recordsRetentionYears: number;
}

/** What an operator field holds while its variable is unset, e.g. "[contact email — set OPERATOR_EMAIL]". */
export const placeholder = (variable: string, what: string) => `[${what} — set ${variable}]`;

/** A value placeholder() made: no address, so never a mailto: link (an invalid URL) nor a security.txt contact. */
export const isPlaceholder = (value: string) => value.startsWith('[') && value.endsWith(']');
