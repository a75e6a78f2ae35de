import { PolicyPage, policyMetadata } from '@/components/policies/PolicyPage';

export const generateMetadata = () => policyMetadata('cookie-policy');

export default function Page() {
  return <PolicyPage slug="cookie-policy" />;
}
