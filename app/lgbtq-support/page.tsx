import { PolicyPage, policyMetadata } from '@/components/policies/PolicyPage';

export const generateMetadata = () => policyMetadata('lgbtq-support');

export default function Page() {
  return <PolicyPage slug="lgbtq-support" />;
}
