import type { OperatorInfo } from '@/lib/operator';

import { EmailLink } from './EmailLink';
import { OnThisPage } from './OnThisPage';

export default function PrivacyPolicy({ operator }: { operator: OperatorInfo }) {
  const contact = <EmailLink address={operator.email} />;
  return (
    <>
      <p>
        Using an adult site is personal, and we treat your information that way. This policy explains what {operator.siteName}{' '}
        collects, why, who else sees it, how long we keep it and what you can do about it. The short version: we collect only what
        we need to run the site and keep it legal and safe, we never sell your data, and we use no advertising trackers or
        third-party analytics.
      </p>

      <OnThisPage
        sections={[
          ['who-we-are', 'Who we are'],
          ['what-we-collect-and-why', 'What we collect and why'],
          ['watch-history', 'Your watch history'],
          ['sensitive-information', 'Sensitive information'],
          ['what-others-can-see', 'What others can see'],
          ['what-we-dont-do', 'What we don’t do'],
          ['who-receives-your-data', 'Who receives your data'],
          ['how-long-we-keep-it', 'How long we keep it'],
          ['how-we-protect-it', 'How we protect it'],
          ['your-rights', 'Your rights'],
          ['international-transfers', 'International transfers'],
          ['children', 'Children'],
          ['changes-to-this-policy', 'Changes to this policy'],
        ]}
      />

      <h2 id="who-we-are">Who we are</h2>
      <p>
        {operator.siteName} is run by {operator.name}, the “controller” responsible for your personal data under data protection
        law. You can reach us by email at {contact} or by post at:
      </p>
      <address>
        {operator.name}
        {'\n'}
        {operator.address}
      </address>

      <h2 id="what-we-collect-and-why">What we collect and why</h2>
      <p>
        The table below lists each kind of information, what we use it for and, for visitors in the European Union, the European
        Economic Area and the United Kingdom, the legal basis under the GDPR or UK GDPR.
      </p>
      <table>
        <caption>Personal data {operator.siteName} processes</caption>
        <thead>
          <tr>
            <th scope="col">Information</th>
            <th scope="col">What we use it for</th>
            <th scope="col">Legal basis</th>
          </tr>
        </thead>
        <tbody>
          <tr>
            <th scope="row">Account data: username, email address, password, optional profile photo</th>
            <td>
              Creating and running your account, signing you in, sending verification emails, password reset links and messages
              about password or email changes. We store your password only as an argon2id hash, never in readable form. Profile
              photos are re-encoded, and hidden metadata such as camera details and GPS location is removed; you can change or
              remove yours in Settings at any time, and the previous photo is deleted from our storage.
            </td>
            <td>Contract: we need it to provide the account you asked for.</td>
          </tr>
          <tr>
            <th scope="row">Date of birth</th>
            <td>
              Checking, and keeping a record, that you are 18 or older. It is never shown on your profile or to other members.
            </td>
            <td>Legal obligation and legitimate interests: keeping minors off an adult site.</td>
          </tr>
          <tr>
            <th scope="row">Content you upload: videos, titles, descriptions, categories and file metadata</th>
            <td>
              Reviewing, hosting, re-encoding and showing your videos. We may keep the original file you uploaded so we can
              re-encode it later; originals are never published, but they may contain metadata from your camera or phone, so
              consider removing it before you upload.
            </td>
            <td>Contract; legitimate interests in moderating the site.</td>
          </tr>
          <tr>
            <th scope="row">Activity: likes, follows, comments, notifications and views</th>
            <td>Running the social features, sending you notifications, counting views and likes, and ranking videos.</td>
            <td>Contract.</td>
          </tr>
          <tr>
            <th scope="row">Watch history: which videos you played, where you stopped and when</th>
            <td>
              Letting you continue where you stopped, the Continue watching row on the home page and your History page. See{' '}
              <a href="#watch-history">Your watch history</a>.
            </td>
            <td>Contract; you can pause it at any time.</td>
          </tr>
          <tr>
            <th scope="row">VIP subscription status</th>
            <td>
              Knowing whether you have Edge Trainer VIP, unlocking the daily task and keeping your reward counter. Payments are
              handled by our payment processor: we never see or store your card number. We receive only what we need to know, such
              as whether a payment succeeded and when your subscription renews or ends.
            </td>
            <td>Contract; legal obligation for financial records.</td>
          </tr>
          <tr>
            <th scope="row">IP address</th>
            <td>
              Used briefly to limit repeated login and registration attempts, and to work out your country or region so we can
              apply legal access restrictions (some regions are blocked because of local age-verification laws). Your region is
              worked out again on each request and is not stored with your account.
            </td>
            <td>Legitimate interests in security; legal obligation to respect regional laws.</td>
          </tr>
          <tr>
            <th scope="row">Server logs: IP address, time, page requested, browser type, errors</th>
            <td>Keeping the site running, investigating faults and abuse.</td>
            <td>Legitimate interests in security and reliability.</td>
          </tr>
          <tr>
            <th scope="row">Cookies and browser storage</th>
            <td>
              Keeping you signed in, remembering that you passed the age gate, and short-lived caching. See our{' '}
              <a href="/cookie-policy">Cookie Policy</a> for the full list.
            </td>
            <td>Strictly necessary for the service; legitimate interests for convenience features.</td>
          </tr>
          <tr>
            <th scope="row">
              Identity documents, if you upload videos: your legal name, date of birth, a photo or PDF of a government ID and a
              selfie holding it
            </th>
            <td>
              Checking that everyone who publishes videos is an identified adult, before any of their videos goes public, and
              keeping the age records US law (18 U.S.C. 2257) and our card payment providers require of adult sites. Only our
              admins can open the documents, each time is recorded, and they are never shown to other members or used for anything
              else.
            </td>
            <td>Legal obligation; legitimate interests in keeping minors and non-consenting people off the site.</td>
          </tr>
          <tr>
            <th scope="row">Messages you send us: reports, appeals, questions</th>
            <td>Answering you, handling reports and keeping a record of moderation decisions.</td>
            <td>Legitimate interests; legal obligation where a report must be passed on to authorities.</td>
          </tr>
        </tbody>
      </table>

      <h2 id="watch-history">Your watch history</h2>
      <p>
        What you watch on an adult site is private, so here is exactly what we keep. When you play a video while logged in, we
        keep which video it was, where you stopped in it (and whether you watched it to the end) and when, so the player can
        continue there next time and your <a href="/history">History</a> page and the Continue watching row on the home page can
        list it. We keep your 1,000 most recently watched videos; older ones drop off. Only you can see your history: it is never
        shown to other members or to the people who uploaded the videos, and we never use it for advertising or profiling.
      </p>
      <p>
        On your History page you can remove any video from it, clear all of it, or <strong>pause history</strong>: while it is
        paused we record nothing new, neither the videos you play nor where you stop, and what is already there stays until you
        remove it. Your history is included in your data export (<code>history.json</code>) and is deleted with your account.
      </p>
      <p>
        If you are not logged in, nothing is sent to us: your browser alone remembers where you stopped in the last 200 videos you
        played (in its local storage, listed in our <a href="/cookie-policy">Cookie Policy</a>), and you can remove it by clearing
        this site’s data in your browser.
      </p>

      <h2 id="sensitive-information">Sensitive information</h2>
      <p>
        We don’t ask about your sexual orientation, gender identity or sex life. But simply having an account on an adult LGBTQ+
        site, and what you upload, like or follow, can reveal information of that kind, which data protection law treats as
        especially sensitive. We use it only to provide the service you chose, never for profiling or advertising. We rely on your
        explicit consent, given when you create your account and use these features, and, for content you publish yourself, on the
        fact that you chose to make it public. You can withdraw consent at any time by deleting your content or your account.
      </p>

      <h2 id="what-others-can-see">What others can see</h2>
      <p>
        Other visitors (all of whom must have passed the age gate) can see your username, profile photo, published videos and
        comments, and counts such as likes and followers. Your email address, date of birth, VIP payment details and unpublished
        uploads are never shown to other members. Choose a username and profile photo that don’t reveal your real identity if you
        want to stay private.
      </p>

      <h2 id="what-we-dont-do">What we don’t do</h2>
      <ul>
        <li>We don’t sell your personal information, and we don’t “share” it for cross-context behavioural advertising.</li>
        <li>We don’t show ads and don’t use advertising trackers or pixels.</li>
        <li>We don’t use third-party analytics.</li>
        <li>We don’t make decisions about you based solely on automated processing that have legal or similar effects.</li>
      </ul>

      <h2 id="who-receives-your-data">Who receives your data</h2>
      <p>
        We share personal data only with service providers that help us run {operator.siteName}, under contracts that require them
        to protect it and use it only on our instructions:
      </p>
      <ul>
        <li>our hosting provider, which runs the servers and database;</li>
        <li>our content delivery network and storage provider, which store and deliver videos and images;</li>
        <li>our email delivery provider, which sends verification and account emails; and</li>
        <li>our payment processor, which handles VIP payments under its own privacy policy, shown to you at checkout.</li>
      </ul>
      <p>
        We disclose information to police, courts, regulators or organisations such as the National Center for Missing &amp;
        Exploited Children only where the law requires it, or where it is necessary to protect someone from serious harm. If{' '}
        {operator.siteName} is ever sold or merged, your data would pass to the new operator under this policy, and we would tell
        you before that happens.
      </p>

      <h2 id="how-long-we-keep-it">How long we keep it</h2>
      <ul>
        <li>Account data, content and activity: for as long as you keep your account.</li>
        <li>
          When you delete your account (Settings → Delete account), your profile, videos, comments, likes, follows, watch history
          and notifications are removed at once and you are logged out everywhere; your video files and data exports are erased
          from our storage by a background job within minutes. Payment records are kept, linked only to an account number and
          without your name or email, because accounting law requires it. If we close an account, we remove its personal data
          within 30 days, except what the law requires us to keep longer (payment records, or records linked to a report we had to
          make to authorities).
        </li>
        <li>
          Identity documents (only if you asked to be a verified uploader): while you have an account. When it ends, the selfie
          and everything else you sent us for verification are deleted after {operator.verificationRetentionDays} days. If you had
          published videos, your legal name, date of birth and ID document are kept for {operator.recordsRetentionYears} years,
          because US record-keeping law (18 U.S.C. 2257, 28 CFR 75.4) requires it, and are then deleted.
        </li>
        <li>Server logs: up to 30 days.</li>
        <li>IP addresses used for rate limiting: only for the short time window the limit covers.</li>
        <li>Verification and password-reset links: they expire after a short time and stop working once they are used.</li>
      </ul>

      <h2 id="how-we-protect-it">How we protect it</h2>
      <ul>
        <li>All traffic to the site is encrypted with HTTPS.</li>
        <li>Passwords are stored only as argon2id hashes.</li>
        <li>Session cookies are sealed and encrypted, and cannot be read by scripts on the page.</li>
        <li>Login, registration and password reset requests are rate-limited to slow down password-guessing and abuse.</li>
        <li>Metadata is stripped from profile photos, and access to personal data is limited to the people who need it.</li>
        <li>
          Identity documents are encrypted (AES-256) with a key kept apart from the database, stored apart from videos and photos,
          never reachable by a public address, and shown only to admins; every time an admin opens one is recorded in our audit
          log.
        </li>
      </ul>
      <p>
        No system is perfectly secure. If a breach affects your data, we will tell you and the relevant authorities as the law
        requires.
      </p>

      <h2 id="your-rights">Your rights</h2>
      <p>Depending on where you live, you have some or all of these rights:</p>
      <ul>
        <li>
          <strong>Access</strong> — get a copy of the personal data we hold about you. You can do this yourself: log in, open
          Settings and choose <strong>Download my data</strong>. We prepare a ZIP file with your profile, your videos (with the
          original files you uploaded), comments, likes, watch history, follows, notifications, daily tasks, payment records and
          blocks, and email you when it is ready, usually within minutes. The download works only for you, while you are logged
          in, for 7 days; then we delete the file. You can ask for one export at a time, and for a fresh one a day after the last
          was ready.
        </li>
        <li>
          <strong>Correction</strong> — have inaccurate data fixed.
        </li>
        <li>
          <strong>Deletion</strong> — have your account and data deleted: you can do it yourself in Settings, and delete or edit
          any of your videos from its page.
        </li>
        <li>
          <strong>Portability</strong> — receive the data you gave us in a machine-readable format (the same download: JSON files,
          described in its README.txt, and your original videos).
        </li>
        <li>
          <strong>Objection and restriction</strong> — object to processing based on legitimate interests, or ask us to pause it.
        </li>
        <li>
          <strong>Withdrawing consent</strong> — where we rely on consent, at any time.
        </li>
        <li>
          <strong>Complaint</strong> — complain to a data protection supervisory authority, such as the one where you live or
          work, or in the UK the{' '}
          <a href="https://ico.org.uk/" rel="noopener noreferrer">
            Information Commissioner’s Office
          </a>
          .
        </li>
      </ul>
      <p>
        If you live in California or another US state with a consumer privacy law, such as the California Consumer Privacy Act
        (CCPA), you have the right to know what personal information we collect, use and disclose, to have it corrected or
        deleted, and to opt out of its sale or sharing (we don’t sell or share it). We will not treat you differently for using
        these rights. You may use an authorised agent.
      </p>
      <p>
        To use any of these rights, email {contact} from the address linked to your account, or tell us your username. We may ask
        you to confirm your identity before we act, and we will reply within one month (or the time the law in your state allows).
        Using your rights is free.
      </p>

      <h2 id="international-transfers">International transfers</h2>
      <p>
        Our service providers may process data in countries other than yours, including the United States. Where data leaves the
        EU, EEA or UK for a country without an adequacy decision, we use safeguards the law recognises, such as the European
        Commission’s Standard Contractual Clauses and the UK’s International Data Transfer Addendum. Email us to ask for details.
      </p>

      <h2 id="children">Children</h2>
      <p>
        {operator.siteName} is not for anyone under 18, and we do not knowingly collect information from minors. If we find that
        an account belongs to someone under 18, we delete it. If you believe a minor is using the site, tell us at {contact}.
      </p>

      <h2 id="changes-to-this-policy">Changes to this policy</h2>
      <p>
        We will update this policy when our practices or the law change, and change the date at the top of this page. If a change
        matters, such as a new kind of data or a new use for it, we will tell you by email or on the site before it takes effect.
        Questions about this policy? Write to {contact}.
      </p>
    </>
  );
}
