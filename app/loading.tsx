import { Spinner } from '@/components/shell/Spinner';

export default function Loading() {
  return <Spinner />;
}
