import { PolicyPage, policyMetadata } from '@/components/policies/PolicyPage';

export const generateMetadata = () => policyMetadata('copyright-policy');

export default function Page() {
  return <PolicyPage slug="copyright-policy" />;
}
