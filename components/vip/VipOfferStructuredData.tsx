import { JsonLd } from '@/components/seo/JsonLd';
import type { VipPlanDto } from '@/lib/api-types';
import { getConfig } from '@/lib/config/server';
import type { JsonLdObject } from '@/lib/seo/json-ld';
import { absoluteUrl } from '@/lib/seo/metadata';
import { DEFAULT_IMAGE } from '@/lib/site';

/**
 * schema.org Product with one Offer per plan, so search engines can show the
 * prices. A recurring plan's price is per billing period (billingDuration in
 * days); a pass is paid once.
 */
export function vipOfferData(plans: VipPlanDto[], description: string): JsonLdObject {
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
  return <JsonLd id="vip-offer-data" data={vipOfferData(plans, description)} />;
}
