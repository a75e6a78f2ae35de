import type { OperatorInfo } from '@/lib/operator';

import { EmailLink } from './EmailLink';
import { OnThisPage } from './OnThisPage';

export default function CommunityStandards({ operator }: { operator: OperatorInfo }) {
  return (
    <>
      <p>
        {operator.siteName} is a space for adults to share and enjoy transformation and exploration videos. These standards
        explain what belongs here, what never does, and what happens when something goes wrong. They apply to everything on the
        site: videos, titles, descriptions, profile photos, usernames and comments. By using {operator.siteName} you agree to
        follow them, together with our <a href="/terms-of-use">Terms of Use</a>.
      </p>

      <OnThisPage
        sections={[
          ['who-may-use-the-site', 'Who may use the site'],
          ['consent-and-age-of-everyone-shown', 'Consent and age of everyone shown'],
          ['what-you-can-share', 'What you can share'],
          ['labelling-your-videos', 'Labelling your videos'],
          ['hypno-content', 'Hypno content'],
          ['prohibited-content', 'Prohibited content'],
          ['how-we-treat-each-other', 'How we treat each other'],
          ['moderation', 'Moderation'],
          ['reporting', 'Reporting a video, comment or account'],
          ['enforcement-and-appeals', 'Enforcement and appeals'],
        ]}
      />

      <h2 id="who-may-use-the-site">Who may use the site</h2>
      <p>
        {operator.siteName} is for adults only. You must be at least 18 years old, and at least the age of majority where you live
        if that is higher, and viewing sexually explicit material must be legal for you where you are. Some regions are blocked
        because of local age-verification laws; please don’t try to get around those restrictions. If we learn that an account
        belongs to someone under 18, we delete it.
      </p>

      <h2 id="consent-and-age-of-everyone-shown">Consent and age of everyone shown</h2>
      <p>
        Consent is the foundation of everything on {operator.siteName}. Every person who appears in a video you upload — including
        you — must:
      </p>
      <ul>
        <li>have been 18 or older when the video was recorded;</li>
        <li>have agreed to being filmed; and</li>
        <li>
          have agreed to the video being published on {operator.siteName}. Agreeing to be filmed is not the same as agreeing to
          publication, and someone can agree to one without the other.
        </li>
      </ul>
      <p>
        <strong>Declare who appears.</strong> When you upload, you list everyone in the video and the date it was recorded:
        yourself, and for each co-performer their legal name, stage name, date of birth, a photo or PDF of their government photo
        ID, and their consent to being filmed and to publication here — either signed in our release form (they tick each
        statement and type their full name) or as a signed release you upload. We check that everyone was 18 or older on the
        recording date, and a video is not approved until these records are complete. The records and documents are encrypted and
        seen only by our moderators. Where record-keeping laws apply, such as 18 U.S.C. §&nbsp;2257 in the United States, we keep
        them for seven years after the video is deleted, and you must follow those laws as well.
      </p>
      <p>
        <strong>Withdrawing consent.</strong> Anyone who appears in a video can withdraw their consent at any time through our
        public <a href="/withdraw-consent">withdrawal form</a> (no account needed; there is a link on every video page). The video
        is hidden at once and the uploader is told why. A moderator then reviews the request: if it is confirmed, the video is
        removed for good; if it did not come from someone in the video, the video goes back to review. You can also remove your
        own video at any time (<strong>Delete</strong> on its page or in “Your videos”).
      </p>

      <h2 id="what-you-can-share">What you can share</h2>
      <p>
        {operator.siteName} welcomes fantasy and role-play between consenting adults, made by and for people exploring gender and
        sexuality. That includes:
      </p>
      <ul>
        <li>
          <strong>Transformation</strong> — stories and videos about becoming someone new, in appearance, style or role.
        </li>
        <li>
          <strong>Sissy and feminisation</strong> — dressing up, make-up, lingerie, feminine roles and training fantasies.
        </li>
        <li>
          <strong>Beta</strong> — consensual power exchange, submission, chastity and erotic humiliation themes.
        </li>
        <li>
          <strong>Censorship play</strong> — censored, blurred, pixelated or “denied” content made as a kink.
        </li>
        <li>
          <strong>Hypno</strong> — erotic hypnosis, trance and affirmation videos, following the{' '}
          <a href="#hypno-content">hypno guidance</a> below.
        </li>
      </ul>
      <p>
        Feminisation fantasy is a kink, not a statement about trans women or anyone’s gender. Don’t use it to mock trans people or
        to suggest that being trans is a fetish. Many people here are trans, non-binary or questioning, and all of them deserve
        respect.
      </p>

      <h2 id="labelling-your-videos">Labelling your videos</h2>
      <p>Good labels help people find what they want and avoid what they don’t. When you upload:</p>
      <ul>
        <li>Choose the category that fits best: Sissy, Beta or Censor.</li>
        <li>Give your video an honest title and description that match what is actually in it.</li>
        <li>
          Say clearly in the title or description if a video contains hypnosis, subliminal messages, flashing images, loud or
          sudden sounds, or intense humiliation themes.
        </li>
        <li>Don’t use misleading titles, keywords or thumbnails to attract views.</li>
      </ul>

      <h2 id="hypno-content">Hypno content</h2>
      <p>
        Hypno videos are welcome, but they work on the people who choose to watch them, so they come with extra responsibility.
        Hypno content on {operator.siteName} must be fantasy that the listener can leave at any time.
      </p>
      <ul>
        <li>
          <strong>No suggestions aimed at real harm.</strong> Don’t include suggestions to hurt yourself, to stop eating or
          restrict food, to stop taking medication or seeing a doctor, to take hormones or drugs without medical supervision, to
          spend money you can’t afford, to cut yourself off from friends or support, or to do anything dangerous or illegal.
        </li>
        <li>
          <strong>Be upfront.</strong> Start with a short disclaimer saying what the video contains and what it is meant to do,
          and disclose any hidden or subliminal messages in the description.
        </li>
        <li>
          <strong>Build in a way out.</strong> We strongly encourage a safe word or a clear statement that the listener can stop
          and wake up at any moment, and a proper wake-up at the end.
        </li>
        <li>
          <strong>Remind people where to watch.</strong> Say that the video should never be played while driving, operating
          machinery or anywhere the listener needs to stay alert.
        </li>
      </ul>

      <h2 id="prohibited-content">Prohibited content</h2>
      <p>The following are never allowed, whatever the context, category or claimed fantasy:</p>
      <ul>
        <li>
          Any sexual content involving minors, or anyone who appears to be a minor, including “age play” that presents a
          participant as under 18, and drawn, animated or AI-generated material of this kind.
        </li>
        <li>
          Non-consensual content: hidden-camera or secretly recorded material, upskirt or voyeur footage, and anything filmed or
          published without everyone’s agreement.
        </li>
        <li>Intimate images shared to hurt, shame or take revenge on someone (“revenge porn”).</li>
        <li>Deepfakes, face-swaps or other manipulated media that depict a real person without their consent.</li>
        <li>Real violence, gore, torture or serious injury.</li>
        <li>Sexual content involving animals.</li>
        <li>Incest, including role-play that presents participants as related.</li>
        <li>Sexual activity with anyone who is intoxicated, asleep, unconscious or otherwise unable to consent.</li>
        <li>Content that promotes or encourages self-harm, suicide or eating disorders.</li>
        <li>
          Real-life financial domination aimed at viewers: asking viewers for money, “tributes” or gift cards, posting payment
          links, blackmail or “exposure” threats, or collecting viewers’ personal details. Fantasy themes are fine; taking real
          money or information from viewers is not.
        </li>
        <li>
          Personal information about anyone (“doxxing”): real names, addresses, workplaces, phone numbers, social media accounts
          or photos that could identify someone who has not chosen to share them.
        </li>
        <li>
          Hate speech: attacking or degrading people because of race, ethnicity, national origin, religion, disability, sex,
          sexual orientation, gender identity or expression, or age. This includes transphobia and homophobia.
        </li>
        <li>Harassment, threats, bullying or encouraging others to pile on someone.</li>
        <li>Spam, scams, malware, fake engagement and repeated unwanted promotion.</li>
        <li>
          Content you don’t have the rights to. See our <a href="/copyright-policy">Copyright Policy</a>.
        </li>
      </ul>

      <h2 id="how-we-treat-each-other">How we treat each other</h2>
      <p>
        Comments, follows and likes are how this community connects. Keep them kind, or at least respectful. Erotic humiliation
        belongs inside a video that people chose to watch; it doesn’t belong in comments aimed at other members who didn’t ask for
        it.
      </p>
      <ul>
        <li>Respect people’s names, pronouns and boundaries.</li>
        <li>Don’t send or post sexual comments to someone who has made clear they don’t want them.</li>
        <li>Don’t follow, comment on or tag someone to harass them, or keep contacting someone who has asked you to stop.</li>
        <li>Never try to find out or reveal who someone is offline.</li>
        <li>Don’t create extra accounts to get around a ban or to make it look like more people agree with you.</li>
      </ul>

      <h2 id="moderation">Moderation</h2>
      <p>
        Every video is reviewed by a moderator before it becomes public. Until then, only you and our moderators can see it. We
        check that it fits these standards and the category you chose, and that the age and consent records of everyone in it are
        complete, with everyone 18 or older on the recording date; we do not approve it before. Approval doesn’t mean a video can
        never be removed: if we later learn it breaks these standards, we take it down. Moderators can also remove comments and
        profile photos and restrict or ban accounts.
      </p>

      <h2 id="reporting">Reporting a video, comment or account</h2>
      <p>
        Anyone can report a video, with or without an account. Use the <strong>Report</strong> button under the video, or, if you
        want a reply, the <a href="/report-content">report content form</a> (also linked as “Legal notice” on every video page and
        in the footer). The form asks for:
      </p>
      <ul>
        <li>the address (URL) of the video, copied from your browser’s address bar;</li>
        <li>what is wrong: intimate images shared without consent, someone under 18, something illegal, or something else;</li>
        <li>an explanation: which rule or law you think it breaks, and, if it is about you, how you are connected to it;</li>
        <li>your name and an email address, your typed signature, and a declaration that your notice is made in good faith.</li>
      </ul>
      <p>
        We email you a reference at once, and the outcome when a moderator has decided. Comments and profiles can be reported with
        the Report button by members; anything else can go to <EmailLink address={operator.email} />.
      </p>
      <p>
        <strong>Urgent reports come first.</strong> A report or notice that a video shows someone under 18, or intimate images
        shared without consent, hides the video from the whole site at once, before anyone has looked at it, and a moderator
        decides within 48 hours (the US TAKE IT DOWN Act’s deadline). The uploader is told why, and the video comes back only if
        the moderator finds nothing wrong. Every other report is decided within 7 business days. We report suspected child sexual
        abuse material to the National Center for Missing &amp; Exploited Children (NCMEC) and to other authorities as the law
        requires. Please send us only the link: never download, copy or forward material that may show a minor. You can also
        report it directly to NCMEC’s CyberTipline at{' '}
        <a href="https://report.cybertip.org/" rel="noopener noreferrer">
          report.cybertip.org
        </a>{' '}
        or, in the UK, to the{' '}
        <a href="https://www.iwf.org.uk/" rel="noopener noreferrer">
          Internet Watch Foundation
        </a>
        . If intimate images of you are being shared without your consent,{' '}
        <a href="https://stopncii.org/" rel="noopener noreferrer">
          StopNCII.org
        </a>{' '}
        can help stop them spreading on participating platforms.
      </p>
      <p>
        If your report is about copyright — someone uploaded your work — please use our{' '}
        <a href="/copyright/notice">copyright notice form</a> (see the <a href="/copyright-policy">Copyright Policy</a>) so we
        have everything the law requires.
      </p>

      <h2 id="enforcement-and-appeals">Enforcement and appeals</h2>
      <p>
        What we do depends on how serious the problem is, whether it was deliberate, and your history on the site. A moderator (a
        person) may:
      </p>
      <ul>
        <li>not approve a video you uploaded, until it follows these standards;</li>
        <li>remove a video or a comment after a report;</li>
        <li>
          hide a video at once while we review an urgent notice about it (someone under 18, or someone who did not consent); or
        </li>
        <li>ban your account, which ends every session and hides your videos.</li>
      </ul>
      <p>
        Content involving minors, non-consensual content and doxxing lead to an immediate ban, and we report them to the
        authorities where appropriate. Banned members may not create new accounts.
      </p>
      <p>
        <strong>Every decision comes with its reasons.</strong> You get a notification (for a ban, an email, since you can no
        longer log in) linking to a statement of reasons: what we decided, about which video, comment or account, the rule of
        these standards or the law it rests on, the facts, whether a person or an automatic process decided, and until when you
        can appeal. Signed-in members find all of theirs under <a href="/decisions">Decisions about you</a> (also in Settings).
      </p>
      <p>
        <strong>You can appeal each decision once, for six months.</strong> Write why you think it is wrong on the statement’s
        page (the link in the email works without logging in). An admin who did not make the decision reads your appeal and
        upholds or reverses the decision, with a note you can read. If it is reversed, we undo what can be undone: a video becomes
        public again once nothing else blocks it (for example, every performer’s age and consent record must still be complete),
        and a ban is lifted. A removed comment was deleted and cannot come back. We tell you the outcome in your notifications and
        by email. The outcome of an appeal is final on {operator.siteName}; you can still take the decision to a certified
        out-of-court dispute settlement body or to a court. If you cannot use the form, email{' '}
        <EmailLink address={operator.email} />.
      </p>
      <p>
        We publish how many notices, decisions and appeals we handle, and how they turned out, in our{' '}
        <a href="/transparency">transparency report</a>.
      </p>
    </>
  );
}
