import { PolicyPage, policyMetadata } from '@/components/policies/PolicyPage';

export const generateMetadata = () => policyMetadata('2257');

export default function Page() {
  return <PolicyPage slug="2257" />;
}
