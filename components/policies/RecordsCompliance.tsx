import type { OperatorInfo } from '@/lib/operator';

import { OnThisPage } from './OnThisPage';

/**
 * The 18 U.S.C. 2257 compliance statement: who keeps the records, where, and
 * what they are. The custodian comes from RECORDS_CUSTODIAN_NAME and
 * RECORDS_CUSTODIAN_ADDRESS; unset, the page says so in plain words rather
 * than naming nobody (decision 017).
 */
export default function RecordsCompliance({ operator }: { operator: OperatorInfo }) {
  return (
    <>
      <OnThisPage
        sections={[
          ['compliance-statement', 'Compliance statement'],
          ['custodian-of-records', 'Custodian of records'],
          ['how-records-are-kept', 'How the records are kept'],
          ['reports-and-questions', 'Reports and questions'],
        ]}
      />

      <h2 id="compliance-statement">Compliance statement</h2>
      <p>
        Every person who appears in any visual depiction of actual or simulated sexually explicit conduct on {operator.siteName}{' '}
        was at least 18 years old when the depiction was made. The records required by 18 U.S.C. §&nbsp;2257 and 28 C.F.R.
        Part&nbsp;75 for all such content are kept by the custodian of records named below.
      </p>

      <h2 id="custodian-of-records">Custodian of records</h2>
      {operator.recordsCustodianConfigured ? (
        <address className="policy-address">
          {operator.recordsCustodianName}
          <br />
          {operator.recordsCustodianAddress.split(/\s*\n\s*|\s*;\s*/).map((line, index) => (
            <span key={index}>
              {index > 0 && <br />}
              {line}
            </span>
          ))}
        </address>
      ) : (
        <p role="note">
          The operator of this site has not yet named its custodian of records. Until it does, write to {operator.name} at{' '}
          {operator.email}.{' '}
          <span className="admin-muted">
            ({operator.recordsCustodianName}; {operator.recordsCustodianAddress})
          </span>
        </p>
      )}

      <h2 id="how-records-are-kept">How the records are kept</h2>
      <ul>
        <li>
          <strong>Every uploader is a verified adult.</strong> Before any video is published, its uploader proves their identity
          and age with a government ID and a selfie holding it, which an admin checks.
        </li>
        <li>
          <strong>Every performer is on record.</strong> For each person who appears, the uploader gives their legal name, any
          stage names, date of birth, a copy of a government ID and their signed consent to being filmed and to publication. A
          video cannot be published until every record is complete and shows every performer was 18 or older on the recording
          date.
        </li>
        <li>
          <strong>Records are sealed and kept apart.</strong> Identity documents are encrypted and stored apart from the videos;
          only admins can open them and every view is logged. They are kept for as long as the law requires after the content is
          removed.
        </li>
      </ul>

      <h2 id="reports-and-questions">Reports and questions</h2>
      <p>
        If you believe someone shown on {operator.siteName} is under 18 or did not consent, tell us at once through the{' '}
        <a href="/community-standards#consent-and-age-of-everyone-shown">Community Standards</a> reporting options: we hide the
        video while we review it. See how we handle reports, decisions and appeals in our{' '}
        <a href="/transparency">transparency report</a>.
      </p>
    </>
  );
}
