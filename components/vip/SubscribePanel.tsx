'use client';

import { useState, type ReactNode } from 'react';

import { useSession } from '@/components/session/SessionProvider';
import type { VipCheckoutDto, VipPlanDto } from '@/lib/api-types';
import { ApiClientError, apiRequest } from '@/lib/client/api-client';
import { billingLabel, daysLabel, formatPrice } from '@/lib/format/vip';

import { useReturnStatus, useVipStatus, type ReturnStatus } from './use-vip-status';
import { VipMembership } from './VipMembership';

const LOGIN_HREF = `/login?next=${encodeURIComponent('/subscribe')}`;
const REGISTER_HREF = `/register?next=${encodeURIComponent('/subscribe')}`;

function PlanCard({ plan, action, current }: { plan: VipPlanDto; action: ReactNode; current: boolean }) {
  return (
    <li className={`vip-plan${current ? ' vip-plan-current' : ''}`} data-plan={plan.id}>
      <h3>{plan.name}</h3>
      <p className="vip-price">
        <span className="vip-price-amount">{formatPrice(plan.priceAmount, plan.priceCurrency)}</span>{' '}
        <span className="vip-price-term">{billingLabel(plan)}</span>
      </p>
      <p className="vip-plan-note">
        {plan.recurring
          ? 'Renews automatically. Cancel at any time; VIP lasts to the end of the period you paid for.'
          : `No renewal: ${daysLabel(plan.periodDays)} of VIP, then it ends on its own.`}
      </p>
      <div className="vip-plan-action">{current ? <span className="vip-plan-badge">Your plan</span> : action}</div>
    </li>
  );
}

/** The message for a member coming back from Verotel's payment page. */
function ReturnNotice({
  returnStatus,
  isVip,
  stillWaiting,
  gaveUpWaiting,
}: {
  returnStatus: ReturnStatus;
  isVip: boolean;
  stillWaiting: boolean;
  gaveUpWaiting: boolean;
}) {
  if (returnStatus === 'declined' && !isVip) {
    return (
      <div className="vip-notice vip-notice-bad" role="alert">
        <strong>Your payment did not go through, and you have not been charged.</strong> You can try again below, with another
        card or payment method.
      </div>
    );
  }
  if (returnStatus !== 'success') return null;
  return (
    <div className={`vip-notice${isVip ? ' vip-notice-good' : ''}`} role="status">
      {isVip ? (
        <strong>Thank you! Your payment is confirmed and your VIP has started.</strong>
      ) : gaveUpWaiting ? (
        <>
          <strong>Thank you! We have not received Verotel’s confirmation yet.</strong> It can take a few minutes: reload this page
          later. Your VIP starts as soon as the payment is confirmed.
        </>
      ) : (
        <>
          <strong>Thank you!</strong> Your VIP starts as soon as Verotel confirms the payment, usually within a minute.{' '}
          {stillWaiting && <span className="vip-waiting">Checking…</span>}
        </>
      )}
    </div>
  );
}

/**
 * The call to action of /subscribe, a client island over the prerendered
 * page: the plans (in the server HTML for everyone), then what fits the
 * visitor: sign up or log in; choose a plan and pay; or, for VIP members,
 * their VIP and how to cancel.
 */
export function SubscribePanel({ plans, siteName }: { plans: VipPlanDto[]; siteName: string }) {
  const { loading, user } = useSession();
  const returnStatus = useReturnStatus();
  const vip = useVipStatus(returnStatus);
  const [pendingPlan, setPendingPlan] = useState<string | null>(null);
  const [checkoutError, setCheckoutError] = useState<string | null>(null);

  const member = user ? (vip.status?.member ?? null) : null;
  const isVip = Boolean(member?.isVIP);
  const canBuy = Boolean(member && !isVip && vip.status?.paymentsAvailable);
  const currentPlans = new Set(member?.entitlements.map((entitlement) => entitlement.planId) ?? []);

  async function choose(plan: VipPlanDto) {
    setPendingPlan(plan.id);
    setCheckoutError(null);
    try {
      const { url } = await apiRequest<VipCheckoutDto>('/api/vip/checkout', { json: { plan: plan.id } });
      // Verotel's own page takes the payment; it sends the member back to /subscribe?status=…
      window.location.assign(url);
    } catch (error) {
      setPendingPlan(null);
      setCheckoutError(error instanceof ApiClientError ? error.message : 'Could not start the checkout. Please try again.');
      if (error instanceof ApiClientError && error.status === 409) void vip.retry();
    }
  }

  function actionFor(plan: VipPlanDto): ReactNode {
    if (loading || (user && !vip.status && !vip.error)) return <span className="vip-plan-placeholder" aria-hidden="true" />;
    if (!user) {
      return (
        <a className="btn btn-ghost btn-block" href={LOGIN_HREF}>
          Log in to choose
        </a>
      );
    }
    if (!canBuy) return null;
    return (
      <button
        type="button"
        className="btn btn-primary btn-block"
        disabled={pendingPlan !== null}
        onClick={() => void choose(plan)}
      >
        {pendingPlan === plan.id ? 'Opening secure checkout…' : `Choose ${plan.name}`}
      </button>
    );
  }

  let box: ReactNode = null;
  if (!loading && !user) {
    box = (
      <div className="vip-box" data-testid="vip-join">
        <h3>Join Edge Trainer</h3>
        <p>Create a free account, or log in, then choose a plan. You pay on Verotel’s secure page and come back here.</p>
        <div className="vip-box-actions">
          <a className="btn btn-primary" href={REGISTER_HREF}>
            Sign up
          </a>
          <a className="btn btn-ghost" href={LOGIN_HREF}>
            Log in
          </a>
        </div>
      </div>
    );
  } else if (user && vip.error && !vip.status) {
    box = (
      <div className="vip-box" role="alert">
        <p>We could not load your VIP status.</p>
        <button type="button" className="btn btn-ghost" onClick={() => void vip.retry()}>
          Try again
        </button>
      </div>
    );
  } else if (member && isVip) {
    box = <VipMembership entitlements={member.entitlements} siteName={siteName} />;
  } else if (member && !vip.status?.paymentsAvailable) {
    box = (
      <div className="vip-box" role="status" data-testid="vip-unavailable">
        <h3>Payments are not available on this site yet.</h3>
        <p>Please check back later.</p>
      </div>
    );
  }

  return (
    <div className="vip-panel">
      {user && (
        <ReturnNotice
          returnStatus={returnStatus}
          isVip={isVip}
          stillWaiting={vip.stillWaiting}
          gaveUpWaiting={vip.gaveUpWaiting}
        />
      )}
      {!loading && !user && returnStatus === 'success' && (
        <div className="vip-notice" role="status">
          <strong>Thank you!</strong> Log in to see your VIP: it starts as soon as Verotel confirms the payment.
        </div>
      )}
      {box}
      {checkoutError && (
        <p className="vip-notice vip-notice-bad" role="alert">
          {checkoutError}
        </p>
      )}
      <ul className="vip-plans" aria-label="VIP plans">
        {plans.map((plan) => (
          <PlanCard key={plan.id} plan={plan} action={actionFor(plan)} current={isVip && currentPlans.has(plan.id)} />
        ))}
      </ul>
    </div>
  );
}
