import type { VipEntitlementDto } from '@/lib/api-types';
import { formatVipEndDate } from '@/lib/format/vip';

/** One line per period of VIP the member has, saying when it renews or ends and how to cancel. */
function EntitlementLine({ entitlement, siteName }: { entitlement: VipEntitlementDto; siteName: string }) {
  const last = formatVipEndDate(entitlement.periodEnd);
  const plan = entitlement.planName ?? 'VIP';
  if (entitlement.source === 'manual') {
    return (
      <li>
        <strong>VIP granted by the {siteName} team</strong>, until {last}. It ends on its own: there is nothing to cancel.
      </li>
    );
  }
  if (!entitlement.recurring) {
    return (
      <li>
        <strong>{plan}</strong>: VIP until {last}. A pass ends on its own: there is nothing to cancel.
      </li>
    );
  }
  if (entitlement.status === 'cancelled') {
    return (
      <li>
        <strong>{plan} subscription, cancelled</strong>: it will not renew, and your VIP lasts until {last}.
      </li>
    );
  }
  return (
    <li>
      <strong>{plan} subscription</strong>: renews on {last}.{' '}
      {entitlement.cancelUrl ? (
        <>
          You can cancel at any time on Verotel’s page; VIP then lasts until the end of the period you paid for.
          <span className="vip-cancel">
            <a className="btn btn-ghost" href={entitlement.cancelUrl} rel="noopener noreferrer">
              Cancel subscription
            </a>
          </span>
        </>
      ) : (
        <>
          To cancel, write to the site’s operator (the address is in the <a href="/privacy-policy">Privacy Policy</a>).
        </>
      )}
    </li>
  );
}

/** What a VIP member sees: the state of their VIP, and where the daily task is. */
export function VipMembership({ entitlements, siteName }: { entitlements: VipEntitlementDto[]; siteName: string }) {
  return (
    <div className="vip-box vip-box-member" data-testid="vip-membership">
      <h3>You are an Edge Trainer VIP</h3>
      <ul className="vip-entitlements">
        {entitlements.map((entitlement) => (
          <EntitlementLine key={entitlement._id} entitlement={entitlement} siteName={siteName} />
        ))}
      </ul>
      <a className="btn btn-primary" href="/">
        Go to today’s task
      </a>
    </div>
  );
}
