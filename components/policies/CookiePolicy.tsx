import type { OperatorInfo } from '@/lib/operator';
import { STORAGE_INVENTORY, type StorageEntry, type StorageKind } from '@/lib/storage-inventory';

import { EmailLink } from './EmailLink';
import { OnThisPage } from './OnThisPage';

const KIND_LABELS: Record<StorageKind, string> = {
  cookie: 'Cookie',
  sessionStorage: 'Session storage',
  localStorage: 'Local storage',
};

const CATEGORY_LABELS: Record<StorageEntry['category'], string> = {
  'strictly necessary': 'Strictly necessary',
  preference: 'Preference',
};

export default function CookiePolicy({ operator }: { operator: OperatorInfo }) {
  const hasPrefixEntries = STORAGE_INVENTORY.some((entry) => entry.isPrefix);
  return (
    <>
      <p>
        This policy explains the small pieces of information {operator.siteName} keeps in your browser, what each one is for, and
        how you can remove them. We keep this list short on purpose: everything here exists to make the site work, and nothing is
        used to track you.
      </p>

      <OnThisPage
        sections={[
          ['cookies-and-browser-storage', 'Cookies and browser storage'],
          ['what-we-dont-use', 'What we don’t use'],
          ['what-we-store', 'What we store'],
          ['controlling-and-deleting-them', 'Controlling and deleting them'],
          ['changes-to-this-policy', 'Changes to this policy'],
          ['contact', 'Contact'],
        ]}
      />

      <h2 id="cookies-and-browser-storage">Cookies and browser storage</h2>
      <p>
        A <strong>cookie</strong> is a small text file that a website asks your browser to keep. Your browser sends it back to the
        same site with each request, which is how the site can recognise that you are signed in.
      </p>
      <p>
        <strong>Local storage</strong> and <strong>session storage</strong> are similar places in your browser where a site’s own
        pages can keep small pieces of information. They are not sent to the server automatically. Local storage stays until it is
        deleted; session storage is cleared when you close the tab or window.
      </p>
      <p>
        Data protection and privacy laws treat all of these in the same way, so this policy covers all three, and when we say
        “cookies” below we mean any of them.
      </p>

      <h2 id="what-we-dont-use">What we don’t use</h2>
      <ul>
        <li>No advertising cookies, and no ads.</li>
        <li>No analytics or statistics cookies, and no third-party analytics services.</li>
        <li>No social media buttons, tracking pixels or third-party cookies of any kind.</li>
      </ul>
      <p>
        Every entry below is set by {operator.siteName} itself and is only ever read by {operator.siteName}. Because there is no
        tracking, there is nothing to opt out of and we don’t show a tracking-consent banner. When you subscribe to VIP, you
        complete payment on our payment processor’s own pages, which may set their own cookies under the processor’s cookie
        policy.
      </p>

      <h2 id="what-we-store">What we store</h2>
      <p>
        This is the complete list. It is generated from the same list that the site’s code uses to read and write these entries,
        so it always matches what the site really stores.
      </p>
      <table>
        <caption>Cookies and browser storage used by {operator.siteName}</caption>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Type</th>
            <th scope="col">Category</th>
            <th scope="col">Purpose</th>
            <th scope="col">Lifetime</th>
          </tr>
        </thead>
        <tbody>
          {STORAGE_INVENTORY.map((entry) => (
            <tr key={`${entry.kind}:${entry.name}`}>
              <th scope="row">
                <code>
                  {entry.name}
                  {entry.isPrefix ? '*' : ''}
                </code>
              </th>
              <td>{KIND_LABELS[entry.kind]}</td>
              <td>{CATEGORY_LABELS[entry.category]}</td>
              <td>{entry.purpose}</td>
              <td>{entry.lifetime}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {hasPrefixEntries && (
        <p>
          <em>
            * A name ending in an asterisk is a prefix: the site may create several entries that start with this name, each
            followed by an identifier, for example one per list of videos.
          </em>
        </p>
      )}
      <p>
        <strong>Strictly necessary</strong> entries are needed for the site to work as you asked: to keep you signed in and to
        remember that you passed the age gate. <strong>Preference</strong> entries are conveniences you can remove without losing
        access to anything.
      </p>

      <h2 id="controlling-and-deleting-them">Controlling and deleting them</h2>
      <p>You are in control. In most browsers you can:</p>
      <ul>
        <li>
          delete cookies and site data for {operator.siteName} alone, usually from the padlock or site-information icon next to
          the address bar, or under “Cookies and site data” in your privacy settings;
        </li>
        <li>clear all cookies and site data from your browser’s privacy or history settings;</li>
        <li>block cookies for this site, or for all sites; or</li>
        <li>use a private or incognito window, which deletes everything when you close it.</li>
      </ul>
      <p>If you delete or block them, here is what to expect:</p>
      <ul>
        <li>You will be signed out, and will need to log in again. If you block cookies completely, you can’t log in.</li>
        <li>The age gate will ask you to confirm that you are 18 or older again.</li>
        <li>Video lists may take a moment longer to appear, because the short-lived copy is gone.</li>
      </ul>
      <p>
        Logging out removes your login token and username from this browser and ends your session. For other ways your information
        is handled, see our <a href="/privacy-policy">Privacy Policy</a>.
      </p>

      <h2 id="changes-to-this-policy">Changes to this policy</h2>
      <p>
        If we add, change or remove a cookie or storage entry, the table above changes with it and we update the date at the top
        of this page. If we ever wanted to use cookies that are not strictly necessary for something new, we would explain it here
        first and ask for your consent where the law requires.
      </p>

      <h2 id="contact">Contact</h2>
      <p>
        Questions about cookies or your privacy? Email us at <EmailLink address={operator.email} />, or write to {operator.name},{' '}
        {operator.address}.
      </p>
    </>
  );
}
