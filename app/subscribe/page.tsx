import type { Metadata } from 'next';
import Link from 'next/link';

import { WebSiteStructuredData } from '@/components/seo/StructuredData';
import { getConfig } from '@/lib/config/server';
import { pageMetadata } from '@/lib/seo/metadata';

export function generateMetadata(): Metadata {
  return pageMetadata({
    title: 'Edge Trainer VIP',
    description: 'Edge Trainer is the VIP tier: a new task every day, a reward counter that grows with you, and support for the creators.',
    path: '/subscribe',
  });
}

const PERKS = [
  { title: 'A new task every day', text: 'Each day brings one fresh task, written for the Sissy, Beta and Censor community. Complete it, and it is marked done until the next one arrives at midnight UTC.' },
  { title: 'A reward counter', text: 'Every task you complete adds to your counter on your profile, so you can see how far your transformation has come.' },
  { title: 'Keep the site independent', text: 'VIP members pay for hosting, moderation and the age-verification work that keeps this space open without advertising.' },
];

export default function SubscribePage() {
  const { siteName } = getConfig();
  return (
    <>
      <WebSiteStructuredData path="/subscribe" name="Edge Trainer VIP" />
      <header className="page-header">
        <span className="eyebrow">VIP</span>
        <h1>Edge Trainer</h1>
        <p>
          Edge Trainer is {siteName}’s VIP membership. It unlocks the daily task: a small challenge each day, tracked by
          your reward counter.
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
      <section className="section empty-state" aria-labelledby="join-vip">
        <h2 id="join-vip">Becoming VIP</h2>
        <p>Payments open soon. Create your free account now, and you can upgrade as soon as VIP launches.</p>
        <Link className="btn btn-primary" href="/register">
          Create a free account
        </Link>
      </section>
    </>
  );
}
