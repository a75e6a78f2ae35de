'use client';

import { usePathname } from 'next/navigation';
import { Suspense, useEffect, useState, type ReactNode } from 'react';

import { CloseIcon, MenuIcon } from '@/components/icons';

import { AccountArea } from './AccountArea';
import { CategoriesMenu } from './CategoriesMenu';
import { SearchBox } from './SearchBox';

function NavItems() {
  const pathname = usePathname();
  return (
    <ul className="nav-links">
      <li>
        <a className="nav-link" href="/" aria-current={pathname === '/' ? 'page' : undefined}>
          Home
        </a>
      </li>
      <li>
        <CategoriesMenu />
      </li>
      <li>
        <a className="nav-link nav-link-vip" href="/subscribe" aria-current={pathname === '/subscribe' ? 'page' : undefined}>
          Edge Trainer
        </a>
      </li>
    </ul>
  );
}

/** The search box reads the URL's query, which needs a Suspense boundary on prerendered pages. */
function Search({ id, onSearch }: { id: string; onSearch?: () => void }) {
  return (
    <Suspense fallback={<div className="nav-search" />}>
      <SearchBox id={id} onSearch={onSearch} />
    </Suspense>
  );
}

export function SiteHeader({ siteName, logo }: { siteName: string; logo: ReactNode }) {
  const pathname = usePathname();
  // Open only on the path where it was opened: any navigation closes it.
  const [openOn, setOpenOn] = useState<string | null>(null);
  const menuOpen = openOn === pathname;
  const setMenuOpen = (open: boolean) => setOpenOn(open ? pathname : null);

  useEffect(() => {
    if (!menuOpen) return;
    const close = (event: KeyboardEvent) => event.key === 'Escape' && setOpenOn(null);
    // Widening past the breakpoint hides the toggle; do not leave a stale open panel behind.
    const wide = window.matchMedia('(min-width: 1024px)');
    const onWide = () => wide.matches && setOpenOn(null);
    document.addEventListener('keydown', close);
    wide.addEventListener('change', onWide);
    return () => {
      document.removeEventListener('keydown', close);
      wide.removeEventListener('change', onWide);
    };
  }, [menuOpen]);

  return (
    <header className="site-header">
      <nav className="navbar" aria-label="Main">
        <a href="/" className="brand" aria-label={`${siteName} home`}>
          {logo}
          <span className="brand-name">{siteName}</span>
        </a>
        <NavItems />
        <Search id="site-search" />
        <AccountArea />
        <button
          type="button"
          className="btn btn-quiet menu-toggle"
          aria-expanded={menuOpen}
          aria-controls="mobile-menu"
          onClick={() => setMenuOpen(!menuOpen)}
        >
          {menuOpen ? <CloseIcon /> : <MenuIcon />}
          <span>{menuOpen ? 'Close' : 'Menu'}</span>
        </button>
      </nav>
      <div id="mobile-menu" className="mobile-panel" data-open={menuOpen} hidden={!menuOpen}>
        {menuOpen && (
          <>
            <Search id="mobile-search" onSearch={() => setMenuOpen(false)} />
            <nav aria-label="Mobile">
              <NavItems />
            </nav>
            <AccountArea />
          </>
        )}
      </div>
    </header>
  );
}
