'use client';

import Link from 'next/link';

import { useSession } from '@/components/session/SessionProvider';

/** The footer's Admin Panel link (spec section 2), shown to admins only; the footer itself stays server-rendered. */
export function AdminFooterLink() {
  const { user } = useSession();
  if (!user?.isAdmin) return null;
  return (
    <li>
      <Link href="/admin">Admin Panel</Link>
    </li>
  );
}
