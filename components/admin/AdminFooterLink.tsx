'use client';


import { useSession } from '@/components/session/SessionProvider';

/** The footer's Admin Panel link (spec section 2), shown to admins only; the footer itself stays server-rendered. */
export function AdminFooterLink() {
  const { user } = useSession();
  if (!user?.isAdmin) return null;
  return (
    <li>
      <a href="/admin">Admin Panel</a>
    </li>
  );
}
