'use client';

import { useEffect, useState, useSyncExternalStore } from 'react';
import useSWR from 'swr';

import { useSession } from '@/components/session/SessionProvider';
import type { VipStatusDto } from '@/lib/api-types';
import { apiRequest } from '@/lib/client/api-client';

/** After a successful payment, how often and how long the page asks whether VIP has started (the postback usually comes within seconds). */
export const CONFIRMATION_POLL_MS = 3_000;
export const CONFIRMATION_WAIT_MS = 2 * 60_000;

export type ReturnStatus = 'success' | 'declined' | null;

/** The SWR key of a member's VIP status: per member, so another login never sees the last one's. */
export const vipStatusKey = (memberId: string) => ['vip-status', memberId] as const;
const fetchStatus = () => apiRequest<VipStatusDto>('/api/vip/status');

const noSubscription = () => () => {};

/**
 * `?status=success|declined`, where Verotel sends the member back. Read from
 * the address after hydration (never on the server: the page is prerendered
 * once for everyone), and without useSearchParams, which would make the
 * prerendered page wait for the client.
 */
export function useReturnStatus(): ReturnStatus {
  const value = useSyncExternalStore(
    noSubscription,
    () => new URLSearchParams(window.location.search).get('status'),
    () => null,
  );
  return value === 'success' || value === 'declined' ? value : null;
}

/**
 * The member's VIP status. Back from a successful payment it polls until
 * VIP has started or CONFIRMATION_WAIT_MS has passed, and then refreshes
 * the session's user so the rest of the site knows too.
 */
export function useVipStatus(returnStatus: ReturnStatus) {
  const { user, refreshUser } = useSession();
  const [waitedLongEnough, setWaitedLongEnough] = useState(false);
  const awaitingConfirmation = returnStatus === 'success' && !waitedLongEnough;

  const { data, error, mutate, isLoading } = useSWR(user ? vipStatusKey(user._id) : null, fetchStatus, {
    refreshInterval: (latest) => (awaitingConfirmation && !latest?.member?.isVIP ? CONFIRMATION_POLL_MS : 0),
    shouldRetryOnError: false,
  });

  useEffect(() => {
    if (!awaitingConfirmation) return;
    const timer = setTimeout(() => setWaitedLongEnough(true), CONFIRMATION_WAIT_MS);
    return () => clearTimeout(timer);
  }, [awaitingConfirmation]);

  const confirmedVip = Boolean(data?.member?.isVIP);
  useEffect(() => {
    if (confirmedVip && user && !user.isVIP) void refreshUser().catch(() => undefined);
  }, [confirmedVip, user, refreshUser]);

  return {
    status: data,
    error,
    retry: () => mutate(),
    isLoading,
    stillWaiting: awaitingConfirmation && !confirmedVip,
    gaveUpWaiting: returnStatus === 'success' && waitedLongEnough && !confirmedVip,
  };
}
