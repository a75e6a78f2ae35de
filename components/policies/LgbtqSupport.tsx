import type { OperatorInfo } from '@/lib/operator';

import { EmailLink } from './EmailLink';
import { OnThisPage } from './OnThisPage';

export default function LgbtqSupport({ operator }: { operator: OperatorInfo }) {
  return (
    <>
      <p>
        Many people come to {operator.siteName} while they are exploring who they are: their gender, their sexuality, their
        desires. However you identify, or if you don’t know yet, you are welcome here. Exploration can feel exciting, and
        sometimes it can feel heavy. This page collects trusted places to turn to when you want someone to talk to, and some
        thoughts on exploring in a way that stays good for you.
      </p>

      <OnThisPage
        sections={[
          ['if-you-are-in-danger', 'If you are in danger right now'],
          ['crisis-lines', 'Crisis lines'],
          ['lgbtq-peer-support', 'LGBTQ+ peer support'],
          ['family-friends-and-allies', 'Family, friends and allies'],
          ['other-countries', 'Other countries'],
          ['exploring-safely', 'Exploring safely'],
          ['staying-safe-on-the-site', 'Staying safe on {operator.siteName}'],
        ]}
      />

      <h2 id="if-you-are-in-danger">If you are in danger right now</h2>
      <p>
        <strong>{operator.siteName} is not a crisis service or a medical service, and we can’t respond to emergencies.</strong> If
        you or someone else is in immediate danger, or you are thinking about ending your life and might act on it, call your
        local emergency number now:
      </p>
      <ul>
        <li>
          <strong>911</strong> in the United States and Canada
        </li>
        <li>
          <strong>999</strong> in the United Kingdom
        </li>
        <li>
          <strong>112</strong> in the European Union (and from most mobile phones in many other countries)
        </li>
        <li>
          <strong>000</strong> in Australia
        </li>
      </ul>
      <p>
        The services below are run by independent organisations, not by {operator.siteName}. They are free, and most let you stay
        anonymous.
      </p>

      <h2 id="crisis-lines">Crisis lines</h2>
      <p>For when things feel overwhelming and you need to talk to someone now.</p>
      <h3>United States and Canada</h3>
      <ul>
        <li>
          <strong>
            <a href="https://988lifeline.org/" rel="noopener noreferrer">
              988 Suicide &amp; Crisis Lifeline
            </a>
          </strong>{' '}
          (United States) — call or text <a href="tel:988">988</a>, or chat online, at any time of day or night. It is for anyone
          in emotional distress or a suicidal crisis, including people worried about someone else.
        </li>
        <li>
          <strong>
            <a href="https://988.ca/" rel="noopener noreferrer">
              9-8-8: Suicide Crisis Helpline
            </a>
          </strong>{' '}
          (Canada) — call or text <a href="tel:988">988</a>, at any time.
        </li>
        <li>
          <strong>
            <a href="https://www.thetrevorproject.org/" rel="noopener noreferrer">
              The Trevor Project
            </a>
          </strong>{' '}
          — crisis support for LGBTQ+ young people under 25, so it is there for members aged 18 to 24. Call{' '}
          <a href="tel:+18664887386">1-866-488-7386</a>, text START to 678-678, or chat on their website, 24 hours a day.
        </li>
      </ul>
      <h3>United Kingdom and Ireland</h3>
      <ul>
        <li>
          <strong>
            <a href="https://www.samaritans.org/" rel="noopener noreferrer">
              Samaritans
            </a>
          </strong>{' '}
          — call <a href="tel:116123">116 123</a> free, day or night, from anywhere in the UK and Ireland. They listen without
          judging, whatever you are going through.
        </li>
      </ul>
      <h3>Australia</h3>
      <ul>
        <li>
          <strong>
            <a href="https://www.lifeline.org.au/" rel="noopener noreferrer">
              Lifeline Australia
            </a>
          </strong>{' '}
          — call <a href="tel:131114">13 11 14</a>, 24 hours a day, for crisis support and suicide prevention.
        </li>
      </ul>

      <h2 id="lgbtq-peer-support">LGBTQ+ peer support</h2>
      <p>
        Sometimes what helps most is talking with someone who has been there. These services are run by and for LGBTQ+ people.
      </p>
      <ul>
        <li>
          <strong>
            <a href="https://translifeline.org/" rel="noopener noreferrer">
              Trans Lifeline
            </a>
          </strong>{' '}
          (United States and Canada) — a peer support hotline run by trans people, for trans and questioning people. Call{' '}
          <a href="tel:+18775658860">877-565-8860</a> in the US or <a href="tel:+18773306366">877-330-6366</a> in Canada. Check
          their website for current opening hours.
        </li>
        <li>
          <strong>
            <a href="https://lgbthotline.org/" rel="noopener noreferrer">
              LGBT National Help Center
            </a>
          </strong>{' '}
          (United States) — free, confidential peer support by phone and online chat, for coming out, relationships, identity and
          more. National Hotline <a href="tel:+18888434564">888-843-4564</a>; Youth Talkline{' '}
          <a href="tel:+18002467743">800-246-7743</a> (up to age 25); Senior Hotline <a href="tel:+18882347243">888-234-7243</a>.
          Opening hours are listed on their website.
        </li>
        <li>
          <strong>
            <a href="https://switchboard.lgbt/" rel="noopener noreferrer">
              Switchboard LGBT+
            </a>
          </strong>{' '}
          (United Kingdom) — a listening service for LGBTQ+ people, by phone on <a href="tel:08000119100">0800 0119 100</a>, by
          email and by online chat. All volunteers identify as LGBTQ+.
        </li>
        <li>
          <strong>
            <a href="https://mindout.org.uk/" rel="noopener noreferrer">
              MindOut
            </a>
          </strong>{' '}
          (United Kingdom) — a mental health service run by and for LGBTQ+ people, with online support, advocacy and peer groups.
        </li>
        <li>
          <strong>
            <a href="https://qlife.org.au/" rel="noopener noreferrer">
              QLife
            </a>
          </strong>{' '}
          (Australia) — anonymous and free LGBTIQ+ peer support and referral, by phone on{' '}
          <a href="tel:1800184527">1800 184 527</a> or by webchat.
        </li>
      </ul>

      <h2 id="family-friends-and-allies">Family, friends and allies</h2>
      <ul>
        <li>
          <strong>
            <a href="https://pflag.org/" rel="noopener noreferrer">
              PFLAG
            </a>
          </strong>{' '}
          — support, information and local chapters for LGBTQ+ people and the families and friends who love them.
        </li>
        <li>
          <strong>
            <a href="https://glaad.org/" rel="noopener noreferrer">
              GLAAD
            </a>
          </strong>{' '}
          — an LGBTQ+ advocacy organisation with guides and resource lists on coming out, trans topics and being an ally.
        </li>
        <li>
          <strong>
            <a href="https://itgetsbetter.org/" rel="noopener noreferrer">
              It Gets Better
            </a>
          </strong>{' '}
          — stories and messages of hope from LGBTQ+ people around the world, with links to support.
        </li>
      </ul>

      <h2 id="other-countries">Other countries</h2>
      <p>
        If you live somewhere else,{' '}
        <a href="https://findahelpline.com/" rel="noopener noreferrer">
          Find A Helpline
        </a>{' '}
        lists free, confidential helplines around the world, checked by its team. You can search by country and filter by the
        topic you want to talk about.
      </p>

      <h2 id="exploring-safely">Exploring safely</h2>
      <p>
        <strong>Questioning is valid.</strong> Wondering about your gender or sexuality doesn’t commit you to any label or any
        path. You can explore, change your mind and take your time. Enjoying feminisation or transformation fantasies doesn’t
        decide who you are, and neither does not enjoying them; only you get to work that out.
      </p>
      <p>
        <strong>Fantasy is fantasy.</strong> Sissy, beta, censorship and hypno videos are erotic play between consenting adults. A
        video telling you that you are weak, owned or unable to resist is part of a game you chose to play, not the truth about
        you. You can step out of it whenever you want.
      </p>
      <p>
        <strong>Consent and aftercare.</strong> Consent applies to you too: choose what you watch, and stop if something doesn’t
        feel right. After intense or hypno content, give yourself some aftercare: take a few minutes to come back, drink some
        water, do something ordinary, or talk to someone you trust. If you explore with a partner, agree on limits and a safe word
        beforehand, and check in with each other afterwards.
      </p>
      <p>
        <strong>Take breaks.</strong> It is healthy to step away. Never listen to hypno content while driving or when you need to
        stay alert, and don’t use it to replace sleep, food or time with people.
      </p>
      <p>
        <strong>Notice how it feels.</strong> It might be time to pause, and perhaps to talk to someone, if you notice that:
      </p>
      <ul>
        <li>you feel worse about yourself after watching, rather than better;</li>
        <li>you watch far more than you intend to, or it gets in the way of work, sleep or relationships;</li>
        <li>you are spending money you can’t afford, or feel pressured by anyone to pay;</li>
        <li>content is making thoughts of self-harm or disordered eating stronger; or</li>
        <li>you feel you can’t stop, even though you want to.</li>
      </ul>
      <p>
        None of this means you did anything wrong. A kink-aware or LGBTQ+-affirming therapist can help, and the services above are
        a good place to start.
      </p>

      <h2 id="staying-safe-on-the-site">Staying safe on {operator.siteName}</h2>
      <ul>
        <li>
          <strong>Protect your real identity.</strong> Choose a username that isn’t your real name or used elsewhere, and a
          profile photo that doesn’t show your face unless you want it to. In videos, watch for things that could identify you:
          your face, tattoos, mail, windows, or your voice.
        </li>
        <li>
          <strong>Keep personal details private.</strong> Don’t share your address, workplace, phone number or other accounts in
          comments or videos. Nobody on {operator.siteName} has a right to know who you are offline.
        </li>
        <li>
          <strong>Nobody can make you pay.</strong> Members are not allowed to ask you for money, gifts or personal information.
          If someone does, or threatens to expose you, don’t pay: stop replying and report them.
        </li>
        <li>
          <strong>Blocking and reporting.</strong> If someone is harassing you, or you want them blocked from contacting you,
          email us at <EmailLink address={operator.email} /> with a link to their profile and the comments involved. Our
          moderators can remove comments and restrict or ban accounts. Read more about what to include in our{' '}
          <a href="/community-standards#reporting">Community Standards</a>.
        </li>
        <li>
          <strong>Your data.</strong> Our <a href="/privacy-policy">Privacy Policy</a> explains what we keep and how you can have
          it deleted.
        </li>
      </ul>
      <p>You deserve to explore safely and to be treated with respect. We are glad you are here.</p>
    </>
  );
}
