import type { OperatorInfo } from '@/lib/operator';

import { EmailLink } from './EmailLink';
import { OnThisPage } from './OnThisPage';

export default function CopyrightPolicy({ operator }: { operator: OperatorInfo }) {
  const agentEmail = <EmailLink address={operator.dmcaAgentEmail} />;
  return (
    <>
      <p>
        Creators put real work into their videos, and {operator.siteName} respects their rights. Members may upload only content
        they made themselves or have permission to share. This policy explains how to ask us to remove content that infringes your
        copyright, how an uploader can respond if they think a removal was a mistake, and what happens to people who infringe
        repeatedly. It follows the United States Digital Millennium Copyright Act (DMCA), 17 U.S.C. §&nbsp;512.
      </p>

      <OnThisPage
        sections={[
          ['before-you-send-a-notice', 'Before you send a notice'],
          ['how-to-send-a-takedown-notice', 'How to send a takedown notice'],
          ['our-designated-agent', 'Our designated agent'],
          ['what-happens-after-a-notice', 'What happens after a notice'],
          ['counter-notices', 'Counter-notices'],
          ['repeat-infringers', 'Repeat infringers'],
          ['false-claims', 'False claims'],
          ['rights-holders-outside-the-us', 'Rights holders outside the United States'],
        ]}
      />

      <h2 id="before-you-send-a-notice">Before you send a notice</h2>
      <p>
        A copyright notice is a legal document. Before you send one, consider whether the use might be authorised, for example by
        a licence you gave, or allowed by law, such as fair use. If you are unsure, you may want to get legal advice.
      </p>
      <p>
        Copyright notices are for infringement of creative work. If a video shows you without your consent, shows someone under
        18, or shares your personal information, you don’t need to use this process: report it as described in our{' '}
        <a href="/community-standards#reporting">Community Standards</a>, and we will treat it as urgent.
      </p>

      <h2 id="how-to-send-a-takedown-notice">How to send a takedown notice</h2>
      <p>
        The quickest way is our <a href="/copyright/notice">copyright notice form</a>: it asks for everything below, one video per
        notice, and a complete notice takes the video down at once. You can also send your notice in writing to our designated
        agent, by email or by post. To be valid under 17 U.S.C. §&nbsp;512(c)(3), it must include all of the following:
      </p>
      <ol>
        <li>
          A physical or electronic signature of the copyright owner or of a person authorised to act on their behalf. A typed full
          name is accepted as an electronic signature.
        </li>
        <li>
          Identification of the copyrighted work you claim has been infringed or, if several works are covered by one notice, a
          representative list of them.
        </li>
        <li>
          Identification of the material you claim is infringing and that you want removed, with information reasonably sufficient
          for us to find it. The full URL of each video or page on {operator.siteName} is the best way to do this.
        </li>
        <li>
          Information reasonably sufficient for us to contact you, such as your name, postal address, telephone number and email
          address.
        </li>
        <li>
          A statement that you have a good-faith belief that use of the material in the manner complained of is not authorised by
          the copyright owner, its agent or the law.
        </li>
        <li>
          A statement that the information in the notice is accurate and, under penalty of perjury, that you are authorised to act
          on behalf of the owner of an exclusive right that is allegedly infringed.
        </li>
      </ol>
      <p>
        Notices that leave out any of these elements may not be effective, and we may ask you to complete them before we act.
        Please send one notice per rights holder, and list every URL you want us to review.
      </p>

      <h2 id="our-designated-agent">Our designated agent</h2>
      <p>Send copyright notices and counter-notices to:</p>
      <address>
        {operator.dmcaAgentName}
        {'\n'}
        Copyright Agent, {operator.name}
        {'\n'}
        {operator.dmcaAgentAddress}
        {'\n'}
        {agentEmail}
      </address>
      <p>
        This address is only for copyright notices. Other messages sent to it, such as support questions or reports that are not
        about copyright, may not get a reply; please write to <EmailLink address={operator.email} /> instead.
      </p>

      <h2 id="what-happens-after-a-notice">What happens after a notice</h2>
      <p>When we receive a complete notice, we:</p>
      <ol>
        <li>
          take the video down at once: it disappears from every page, list, search, feed, sitemap and embed while the notice is
          open;
        </li>
        <li>email you a reference, and put the notice in our moderators’ queue;</li>
        <li>
          tell the uploader, by notification and email, that it was taken down because of a copyright notice, with a statement of
          reasons naming the work you identified and a link to the counter-notice form; and
        </li>
        <li>
          have a moderator review it. If the moderator upholds the notice, the video is removed for good and the takedown counts
          against the uploader (see <a href="#repeat-infringers">Repeat infringers</a>). If the notice is plainly invalid, the
          takedown is withdrawn and the video comes back.
        </li>
      </ol>
      <p>
        If you send a notice, please be aware that the uploader will see it. If you want to keep your personal contact details
        private, you can have an authorised agent, such as a lawyer, send the notice for you.
      </p>

      <h2 id="counter-notices">Counter-notices</h2>
      <p>
        If your content was removed and you believe this was a mistake or misidentification — for example, you own the work, you
        have a licence, or the use is lawful — you can send a counter-notice with our{' '}
        <a href="/copyright/counter-notice">counter-notice form</a> (log in with the account that uploaded the video; the email we
        sent you links to it) or in writing to our designated agent. We accept one counter-notice per takedown. To be valid under
        17 U.S.C. §&nbsp;512(g)(3), it must include:
      </p>
      <ol>
        <li>Your physical or electronic signature (a typed full name is accepted).</li>
        <li>
          Identification of the material that was removed or disabled, and where it appeared before it was removed (the URL on{' '}
          {operator.siteName}).
        </li>
        <li>
          A statement, under penalty of perjury, that you have a good-faith belief that the material was removed or disabled as a
          result of a mistake or misidentification of the material.
        </li>
        <li>Your name, postal address and telephone number.</li>
        <li>
          A statement that you consent to the jurisdiction of the United States Federal District Court for the judicial district
          in which your address is located or, if your address is outside the United States, for any judicial district in which{' '}
          {operator.name} may be found.
        </li>
        <li>
          A statement that you will accept service of process from the person who sent the original notice, or from that person’s
          agent.
        </li>
      </ol>
      <p>
        When we receive a complete counter-notice, we send a copy, including your name and contact details, to the person who sent
        the original notice, and tell them the date we will restore the material: {operator.counterNoticeWaitBusinessDays}{' '}
        business days after we received your counter-notice (the law allows 10 to 14). On that date the video comes back
        automatically, unless the complainant first tells us, through the link in our email or through our designated agent, that
        they have filed a court action seeking to stop you from infringing in relation to the material; then it stays down while
        the case goes on. Restored material must still meet our Community Standards: if something else about the video needs
        review, it waits for a moderator.
      </p>

      <h2 id="repeat-infringers">Repeat infringers</h2>
      <p>
        We terminate, in appropriate circumstances, the accounts of members who repeatedly infringe copyright. Each takedown that
        a moderator upholds is a strike; takedowns that were withdrawn, or restored after a counter-notice, are not. When an
        account reaches {operator.repeatInfringerStrikes} {operator.repeatInfringerStrikes === 1 ? 'strike' : 'strikes'} it is
        closed permanently, and the member receives a statement of reasons they can appeal. We may close an account sooner, after
        a single notice, if the infringement is deliberate or large-scale, for example someone re-uploading other creators’
        catalogues. Members whose accounts are closed for infringement may not open new ones.
      </p>

      <h2 id="false-claims">False claims</h2>
      <p>
        Please be honest. Under 17 U.S.C. §&nbsp;512(f), anyone who knowingly and materially misrepresents that material is
        infringing, or that material was removed by mistake or misidentification, may be liable for damages, including costs and
        attorneys’ fees, suffered by the alleged infringer, the copyright owner or us. We may also ignore notices from people who
        repeatedly send abusive or misleading ones.
      </p>

      <h2 id="rights-holders-outside-the-us">Rights holders outside the United States</h2>
      <p>
        You don’t need to be in the United States to ask us to remove infringing material. Rights holders anywhere can send a
        notice to the same designated agent, with the same information listed above, and we will handle it in the same way, in
        addition to any rights you have under the law of your own country.
      </p>
    </>
  );
}
