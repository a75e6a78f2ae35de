import '@/components/vip/vip.css';

import type { Metadata } from 'next';

import { WebSiteStructuredData } from '@/components/seo/StructuredData';
import { SubscribePanel } from '@/components/vip/SubscribePanel';
import { VipOfferStructuredData } from '@/components/vip/VipOfferStructuredData';
import { getConfig } from '@/lib/config/server';
import { pageMetadata } from '@/lib/seo/metadata';
import { toPlanDto } from '@/lib/server/vip/status';

const DESCRIPTION =
  'Edge Trainer is the VIP tier: a new task every day, a reward counter that grows with you, and support for the creators.';

export function generateMetadata(): Metadata {
  return pageMetadata({ title: 'Edge Trainer VIP', description: DESCRIPTION, path: '/subscribe' });
}

const PERKS = [
  {
    title: 'A new task every day',
    text: 'Each day brings one fresh task, written for the Sissy, Beta and Censor community. Complete it, and it is marked done until the next one arrives at midnight UTC.',
  },
  {
    title: 'A reward counter',
    text: 'Every task you complete adds to your counter on your profile, so you can see how far your transformation has come.',
  },
  {
    title: 'Keep the site independent',
    text: 'VIP members pay for hosting, moderation and the age-verification work that keeps this space open without advertising.',
  },
];

const HOW_IT_WORKS = [
  'You pay on the secure page of Verotel, our payment processor for adult sites: your card details never reach us.',
  'VIP starts as soon as Verotel confirms the payment, usually within a minute of paying.',
  'Subscriptions renew at the end of each period until you cancel. Cancel at any time from this page: your VIP lasts until the end of the period you paid for.',
  'A pass is paid once and ends on its own.',
  'A refunded or disputed payment ends VIP at once.',
];

/**
 * Prerendered and the same for everyone (plans and prices come from
 * VIP_PLANS at build time); what differs per visitor is SubscribePanel, a
 * client island that reads the session and GET /api/vip/status.
 */
export default function SubscribePage() {
  const { siteName, vipPlans } = getConfig();
  const plans = vipPlans.map(toPlanDto);
  return (
    <>
      <WebSiteStructuredData path="/subscribe" name="Edge Trainer VIP" />
      <VipOfferStructuredData plans={plans} description={DESCRIPTION} />
      <header className="page-header">
        <span className="eyebrow">VIP</span>
        <h1>Edge Trainer</h1>
        <p>
          Edge Trainer is {siteName}’s VIP membership. It unlocks the daily task: a small challenge each day, tracked by your
          reward counter.
        </p>
      </header>
      <ul className="perks">
        {PERKS.map((perk) => (
          <li key={perk.title} className="perk">
            <h2>{perk.title}</h2>
            <p>{perk.text}</p>
          </li>
        ))}
      </ul>
      <section className="section" aria-labelledby="vip-plans">
        <h2 id="vip-plans">Choose your plan</h2>
        <SubscribePanel plans={plans} siteName={siteName} />
      </section>
      <section className="section vip-how" aria-labelledby="vip-how">
        <h2 id="vip-how">How payment works</h2>
        <ul>
          {HOW_IT_WORKS.map((line) => (
            <li key={line}>{line}</li>
          ))}
        </ul>
      </section>
    </>
  );
}
