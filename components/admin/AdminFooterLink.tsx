'use client';

import { useSession } from '@/components/session/SessionProvider';

/** The footer's Admin Panel link (spec section 2), shown to admins only: a list of its own beside the footer's links. */
export function AdminFooterLink() {
  const { user } = useSession();
  if (!user?.isAdmin) return null;
  return (
    <ul className="footer-links">
      <li>
        <a href="/admin">Admin Panel</a>
      </li>
    </ul>
  );
}
