import { AdminFooterLink } from '@/components/admin/AdminFooterLink';
import { RTA_LABEL } from '@/lib/site';

const MAIN_LINKS = [
  { href: '/community-standards', label: 'Community Standards' },
  { href: '/privacy-policy', label: 'Privacy Policy' },
  { href: '/cookie-policy', label: 'Cookie Policy' },
  { href: '/lgbtq-support', label: 'LGBTQ+ Support' },
] as const;

const LEGAL_LINKS = [
  { href: '/terms-of-use', label: 'Terms of Use' },
  { href: '/copyright-policy', label: 'Copyright & DMCA' },
  { href: '/withdraw-consent', label: 'Withdraw consent' },
  { href: '/report-content', label: 'Report content' },
  { href: '/2257', label: '2257 Statement' },
  { href: '/transparency', label: 'Transparency' },
] as const;

/** The footer's links and note: a server component, but for the admins' link (AdminFooterLink). */
export function SiteFooter({ siteName }: { siteName: string }) {
  return (
    <footer className="site-footer">
      <div className="footer-inner">
        <nav aria-label="Footer" className="footer-nav">
          <ul className="footer-links">
            {MAIN_LINKS.map((link) => (
              <li key={link.href}>
                <a href={link.href}>{link.label}</a>
              </li>
            ))}
          </ul>
          <AdminFooterLink />
        </nav>
        <ul className="footer-links footer-legal" aria-label="Legal">
          {LEGAL_LINKS.map((link) => (
            <li key={link.href}>
              <a href={link.href}>{link.label}</a>
            </li>
          ))}
        </ul>
        <div className="footer-brand">
          <span className="badge-18" aria-hidden="true">
            18+
          </span>
          <p className="footer-note">
            {siteName} is for adults aged 18 and over. Everyone shown in videos on this site is an adult who consented to being
            filmed and published. Labelled with the RTA label ({RTA_LABEL}) for parental filters.
          </p>
        </div>
      </div>
    </footer>
  );
}
