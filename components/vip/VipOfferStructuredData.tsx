import type { VipPlanDto } from '@/lib/api-types';
import { getConfig } from '@/lib/config/server';
import { absoluteUrl } from '@/lib/seo/metadata';
import { DEFAULT_IMAGE } from '@/lib/site';

/** JSON-LD text safe inside a script element: no `<` can close it early. */
export function jsonLdText(data: unknown): string {
  return JSON.stringify(data).replace(/</g, '\\u003c');
}

/**
 * schema.org Product with one Offer per plan, so search engines can show the
 * prices. A recurring plan's price is per billing period (billingDuration in
 * days); a pass is paid once.
 */
export function vipOfferData(plans: VipPlanDto[], description: string) {
  const { siteName } = getConfig();
  const url = absoluteUrl('/subscribe');
  return {
    '@context': 'https://schema.org',
    '@type': 'Product',
    name: 'Edge Trainer VIP',
    description,
    url,
    image: absoluteUrl(DEFAULT_IMAGE.path),
    brand: { '@type': 'Brand', name: siteName },
    offers: plans.map((plan) => ({
      '@type': 'Offer',
      name: plan.name,
      url,
      price: plan.priceAmount,
      priceCurrency: plan.priceCurrency,
      availability: 'https://schema.org/OnlineOnly',
      priceSpecification: {
        '@type': 'UnitPriceSpecification',
        price: plan.priceAmount,
        priceCurrency: plan.priceCurrency,
        ...(plan.recurring ? { billingDuration: { '@type': 'QuantitativeValue', value: plan.periodDays, unitCode: 'DAY' } } : {}),
      },
    })),
  };
}

export function VipOfferStructuredData({ plans, description }: { plans: VipPlanDto[]; description: string }) {
  // JSON-LD must be raw script text; jsonLdText escapes `<`, so no text can close the element.
  return <script type="application/ld+json" id="vip-offer-data" dangerouslySetInnerHTML={{ __html: jsonLdText(vipOfferData(plans, description)) }} />;
}
