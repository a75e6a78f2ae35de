'use client';

import { usePathname } from 'next/navigation';

export const ADMIN_SECTIONS = [
  { href: '/admin', label: 'Dashboard' },
  { href: '/admin/moderation', label: 'Moderation' },
  { href: '/admin/verifications', label: 'Verifications' },
  { href: '/admin/reports', label: 'Reports' },
  { href: '/admin/appeals', label: 'Appeals' },
  { href: '/admin/members', label: 'Members' },
  { href: '/admin/tasks', label: 'Daily tasks' },
  { href: '/admin/payments', label: 'Payments' },
  { href: '/admin/jobs', label: 'Jobs' },
  { href: '/admin/audit', label: 'Audit log' },
] as const;

/** The panel's sections; the current one (or the one a member page belongs to) is marked for screen readers and styled. */
export function AdminNav() {
  const pathname = usePathname();
  const current = (href: string) =>
    href === '/admin' ? pathname === '/admin' : pathname === href || pathname.startsWith(`${href}/`);
  return (
    <nav className="admin-nav" aria-label="Admin Panel">
      <p className="admin-nav-title">Admin Panel</p>
      <ul>
        {ADMIN_SECTIONS.map((section) => (
          <li key={section.href}>
            <a href={section.href} aria-current={current(section.href) ? 'page' : undefined}>
              {section.label}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}
