import { PolicyPage, policyMetadata } from '@/components/policies/PolicyPage';

export const generateMetadata = () => policyMetadata('terms-of-use');

export default function Page() {
  return <PolicyPage slug="terms-of-use" />;
}
