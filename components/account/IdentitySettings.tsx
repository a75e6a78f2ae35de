'use client';

import useSWR from 'swr';

import { useSession } from '@/components/session/SessionProvider';
import type { MyVerificationDto } from '@/lib/api-types';
import { apiRequest } from '@/lib/client/api-client';

const PATH = '/api/users/me/verification';
const STATE_TEXT: Record<MyVerificationDto['status'], string> = {
  none: 'Not verified. Your videos are published only after you verify your identity.',
  pending: 'Your documents are under review.',
  approved: 'Verified.',
  rejected: 'Not approved. You can send new documents.',
};

/** Where the member's identity verification stands, with the way to /verify (the form lives there: files need a page, not a modal). */
export function IdentitySettings({ onNavigate }: { onNavigate: () => void }) {
  const { user } = useSession();
  const { data } = useSWR(user ? [PATH, user._id] : null, () => apiRequest<{ verification: MyVerificationDto }>(PATH), {
    revalidateOnFocus: false,
  });
  const state = data?.verification.status;
  return (
    <section className="settings-section" aria-labelledby="identity-settings-title">
      <h3 id="identity-settings-title">Identity verification</h3>
      <p className="muted">
        {state ? STATE_TEXT[state] : 'Uploaders verify their identity once, so every video is published by a verified adult.'}
      </p>
      <a className="btn btn-ghost" href="/verify" onClick={onNavigate}>
        {state === 'approved' ? 'See your verification' : state === 'pending' ? 'See your verification' : 'Verify your identity'}
      </a>
    </section>
  );
}
