import { PolicyPage, policyMetadata } from '@/components/policies/PolicyPage';

export const generateMetadata = () => policyMetadata('community-standards');

export default function Page() {
  return <PolicyPage slug="community-standards" />;
}
