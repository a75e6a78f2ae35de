import type { OperatorInfo } from '@/lib/operator';

import { EmailLink } from './EmailLink';
import { OnThisPage } from './OnThisPage';

export default function TermsOfUse({ operator }: { operator: OperatorInfo }) {
  const contact = <EmailLink address={operator.email} />;
  return (
    <>
      <p>
        These terms are the agreement between you and {operator.name} (“we”, “us”), who runs {operator.siteName} at{' '}
        {operator.siteUrl}. They cover what you can expect from us and what we expect from you. Please read them together with our{' '}
        <a href="/community-standards">Community Standards</a> and <a href="/privacy-policy">Privacy Policy</a>.
      </p>

      <OnThisPage
        sections={[
          ['accepting-these-terms', 'Accepting these terms'],
          ['who-can-use-the-site', 'Who can use the site'],
          ['your-account', 'Your account'],
          ['your-content', 'Your content'],
          ['rules-of-conduct', 'Rules of conduct'],
          ['edge-trainer-vip', 'Edge Trainer VIP'],
          ['our-intellectual-property', 'Our intellectual property'],
          ['copyright-complaints', 'Copyright complaints'],
          ['suspension-and-termination', 'Suspension and termination'],
          ['disclaimers', 'Disclaimers'],
          ['limitation-of-liability', 'Limitation of liability'],
          ['indemnity', 'Indemnity'],
          ['changes-to-these-terms', 'Changes to these terms'],
          ['governing-law', 'Governing law and disputes'],
          ['contact', 'Contact'],
        ]}
      />

      <h2 id="accepting-these-terms">Accepting these terms</h2>
      <p>
        By visiting {operator.siteName}, confirming the age gate or creating an account, you agree to these terms. If you don’t
        agree, please don’t use the site.
      </p>

      <h2 id="who-can-use-the-site">Who can use the site</h2>
      <p>{operator.siteName} contains sexually explicit material. You may use it only if:</p>
      <ul>
        <li>you are at least 18 years old and have reached the age of majority where you live;</li>
        <li>viewing adult content is legal where you are; and</li>
        <li>you have not been banned from the site before.</li>
      </ul>
      <p>
        Some countries and regions are blocked because of local age-verification laws, based on the location your internet
        connection appears to come from. Don’t use a VPN or other tools to get around these restrictions. It is your
        responsibility to make sure that using the site is lawful for you.
      </p>

      <h2 id="your-account">Your account</h2>
      <ul>
        <li>Give accurate information when you register, including your real date of birth.</li>
        <li>An account is for one person. Don’t share it, sell it or let anyone else use it.</li>
        <li>
          Keep your password safe and don’t reuse one from another site. You are responsible for what happens under your account;
          tell us straight away at {contact} if you think someone else has used it.
        </li>
        <li>
          We send a verification email when you register or change your email address. Follow the link in it to confirm that the
          address is yours.
        </li>
        <li>Your username must not impersonate another person or be offensive.</li>
      </ul>

      <h2 id="your-content">Your content</h2>
      <h3>You own what you upload</h3>
      <p>
        Videos, titles, descriptions, comments and profile photos you post (“your content”) stay yours. To run the site, you give{' '}
        {operator.name} a worldwide, non-exclusive, royalty-free licence to host, store, copy, re-encode and transcode, create
        thumbnails and previews of, display and distribute your content on {operator.siteName}, for as long as it is on the site.
        The licence ends when you or we remove the content, except for copies we must keep by law or as evidence, and for the
        short time it takes removed content to clear from caches. We don’t sell your content or license it to anyone else.
      </p>
      <h3>What you promise us</h3>
      <p>When you upload content, you confirm that:</p>
      <ul>
        <li>you own it or have every right needed to publish it here;</li>
        <li>
          everyone who appears in it was 18 or older when it was recorded, agreed to being filmed and agreed to it being published
          on {operator.siteName};
        </li>
        <li>
          the performer records you give us with it (who appears, their legal names, dates of birth, ID documents and signed
          releases, and the recording date) are true and complete; we keep them, encrypted, for as long as the law requires (seven
          years after the video is deleted under 18 U.S.C. §&nbsp;2257), and a video is not published without them;
        </li>
        <li>
          anyone who appears in it may withdraw their consent through our public withdrawal form, and we then hide the video at
          once and remove it if the request is confirmed; and
        </li>
        <li>it follows these terms, our Community Standards and the law.</li>
      </ul>
      <h3>Moderation</h3>
      <p>
        Every upload is reviewed by a moderator before it becomes public. We may decline, remove or restrict any content at our
        discretion, including content that we reasonably believe breaks these terms or the law, and we are not obliged to host
        anything. We are not responsible for content posted by members, and its presence on the site is not an endorsement.
      </p>

      <h2 id="rules-of-conduct">Rules of conduct</h2>
      <p>
        You must follow our <a href="/community-standards">Community Standards</a>, which list what is not allowed. In addition,
        don’t:
      </p>
      <ul>
        <li>break the law, or help anyone else to;</li>
        <li>try to access accounts, data or parts of the site you are not allowed to;</li>
        <li>scrape, bulk-download or re-publish content from the site without the uploader’s permission;</li>
        <li>interfere with the site’s security, rate limits, age gate or regional restrictions; or</li>
        <li>upload malware or overload the site with automated requests.</li>
      </ul>

      <h2 id="edge-trainer-vip">Edge Trainer VIP</h2>
      <p>Edge Trainer is our paid VIP membership. It unlocks a daily task and a reward counter on your profile.</p>
      <ul>
        <li>
          <strong>Billing.</strong> Payments are taken by our payment processor, which handles your card details under its own
          terms; we never see your card number. The price, currency and billing period are shown before you pay.
        </li>
        <li>
          <strong>Renewal.</strong> Unless the checkout says otherwise, your membership renews automatically at the end of each
          billing period until you cancel.
        </li>
        <li>
          <strong>Cancellation.</strong> You can cancel at any time, through the payment processor or by emailing {contact}.
          Cancelling stops future payments; you keep VIP access until the end of the period you have paid for.
        </li>
        <li>
          <strong>Refunds.</strong> Payments already made are not refunded, except where the law requires or we decide otherwise.
          If you are a consumer in the EU or UK, you can withdraw within 14 days of subscribing. Because VIP access starts as soon
          as you pay, you ask us at checkout to start straight away; if you then withdraw within the 14 days, you may be charged
          for the part of the service you already received, as the law allows.
        </li>
        <li>
          <strong>Entertainment only.</strong> Daily tasks are fantasy entertainment. You are never required to complete one, and
          you should skip any task that doesn’t feel safe or right for you. The reward counter has no monetary value and cannot be
          exchanged, transferred or cashed out.
        </li>
        <li>
          <strong>Changes.</strong> We may change VIP features or the price. Price changes apply from your next billing period,
          and we will tell you in advance so you can cancel first.
        </li>
      </ul>

      <h2 id="our-intellectual-property">Our intellectual property</h2>
      <p>
        The {operator.siteName} name, logo, design and software belong to {operator.name} or its licensors. You may use the site
        for your own personal, non-commercial use. These terms don’t give you any other right to use them.
      </p>

      <h2 id="copyright-complaints">Copyright complaints</h2>
      <p>
        If you believe content on the site infringes your copyright, send a notice as described in our{' '}
        <a href="/copyright-policy">Copyright Policy</a>. We terminate the accounts of repeat infringers.
      </p>

      <h2 id="suspension-and-termination">Suspension and termination</h2>
      <p>
        You can stop using {operator.siteName} and delete your account at any time in Settings: it takes effect at once and cannot
        be undone. You can also edit or delete any video you uploaded; a changed title, description or tags of an approved video
        is reviewed again before it is shown. We may remove content, suspend or permanently ban your account if you break these
        terms or the Community Standards, if the law requires it, or if your use puts other people or the site at risk. Where
        appropriate we will tell you why, and you can appeal as described in the Community Standards. If we ban you for a serious
        breach, any unused part of a VIP period is not refunded, unless the law requires otherwise. Sections of these terms that
        by their nature should survive, such as the licence for content kept by law, disclaimers, limitation of liability and
        indemnity, continue after termination.
      </p>

      <h2 id="disclaimers">Disclaimers</h2>
      <p>
        We work hard to keep {operator.siteName} running and safe, but we provide it “as is” and “as available”. To the extent the
        law allows, we make no promises that it will always be available, error-free or secure, or that content posted by members
        is accurate, lawful or suitable for you. Content on the site is fantasy made for entertainment; it is not medical,
        psychological or any other professional advice.
      </p>

      <h2 id="limitation-of-liability">Limitation of liability</h2>
      <p>
        To the extent the law allows, {operator.name} is not liable for indirect, incidental, special or consequential losses,
        such as loss of profit, data or reputation, arising from your use of the site. Our total liability to you for any claim is
        limited to the greater of the amount you paid us in the 12 months before the claim arose and 50 US dollars.
      </p>
      <p>
        Nothing in these terms limits liability that cannot legally be limited, such as liability for death or personal injury
        caused by negligence, or for fraud, and nothing affects your statutory rights as a consumer.
      </p>

      <h2 id="indemnity">Indemnity</h2>
      <p>
        If someone makes a claim against {operator.name} because of content you posted or because you broke these terms or the
        law, you agree to cover the reasonable losses and costs, including legal fees, that result, to the extent the law allows.
        This does not apply to losses we caused ourselves.
      </p>

      <h2 id="changes-to-these-terms">Changes to these terms</h2>
      <p>
        We may update these terms when the site or the law changes. We will change the date at the top of this page and, for
        significant changes, tell you by email or on the site before they take effect. If you keep using {operator.siteName} after
        a change takes effect, the new terms apply. If you don’t agree, you can delete your account.
      </p>

      <h2 id="governing-law">Governing law and disputes</h2>
      <p>
        These terms are governed by the law of the place where {operator.name} is established, as shown by its address below, and
        the courts there have jurisdiction over any dispute. If you are a consumer living elsewhere, you keep the protection of
        the mandatory laws of your own country, and you may also bring a claim in the courts where you live if that law gives you
        the right to. Before starting any formal dispute, please contact us: most problems can be solved quickly by email.
      </p>

      <h2 id="contact">Contact</h2>
      <p>Questions about these terms? Write to us:</p>
      <address>
        {operator.name}
        {'\n'}
        {operator.address}
        {'\n'}
        {contact}
      </address>
    </>
  );
}
