import { LogoMark } from '@/components/brand/LogoMark';
import { ChevronDownIcon, CloseIcon, MenuIcon, SearchIcon } from '@/components/icons';
import { HEADER_READY_SCRIPT } from '@/lib/app-scripts/generated';
import { CATEGORIES } from '@/lib/site';

import { AccountArea } from './AccountArea';

/** The nav links, in the navbar and again in the mobile menu; `aria-current` is set by the header script (lib/app-scripts/source/header.ts). */
function NavItems({ idPrefix }: { idPrefix: string }) {
  const menuId = `${idPrefix}-categories`;
  return (
    <ul className="nav-links">
      <li>
        <a className="nav-link" href="/">
          Home
        </a>
      </li>
      <li>
        {/* A popover: the browser toggles it, closes it on Escape and on an outside click, and tells assistive technology
            whether it is open (popovertarget, so no aria-expanded, which the HTML standard forbids beside it); the script places it. */}
        <div className="dropdown">
          <button type="button" className="nav-link" popoverTarget={menuId}>
            Categories <ChevronDownIcon />
          </button>
          <ul id={menuId} className="dropdown-menu" popover="auto">
            {CATEGORIES.map((category) => (
              <li key={category}>
                <a href={`/category/${category}`}>{category}</a>
              </li>
            ))}
          </ul>
        </div>
      </li>
      <li>
        <a className="nav-link nav-link-vip" href="/subscribe">
          Edge Trainer
        </a>
      </li>
    </ul>
  );
}

/** A plain GET form to /search; the header script trims the query, ignores a blank one and fills in the URL's ?q=. */
function SearchBox({ id }: { id: string }) {
  return (
    <form role="search" action="/search" method="get" className="nav-search">
      <label htmlFor={id} className="visually-hidden">
        Search videos
      </label>
      <input
        id={id}
        name="q"
        type="search"
        placeholder="Search videos"
        autoComplete="off"
        enterKeyHint="search"
        maxLength={200}
      />
      <button type="submit" aria-label="Search">
        <SearchIcon />
      </button>
    </form>
  );
}

/**
 * The navbar, and below 1024 px a toggle for the mobile menu (a popover). A server component: its menus are popovers
 * answered by the browser and the inline scripts of
 * lib/app-scripts/source/header.ts; its only client component is the account area.
 */
export function SiteHeader({ siteName }: { siteName: string }) {
  return (
    <header className="site-header">
      <nav className="navbar" aria-label="Main">
        <a href="/" className="brand" aria-label={`${siteName} home`}>
          <LogoMark size={34} />
          <span className="brand-name">{siteName}</span>
        </a>
        <NavItems idPrefix="nav" />
        <SearchBox id="site-search" />
        <AccountArea />
        {/* CSS shows the icon and word for the menu's state ("Menu" or "Close"), so the button's name follows it too. */}
        <button type="button" className="btn btn-quiet menu-toggle" popoverTarget="mobile-menu">
          <span className="menu-toggle-closed">
            <MenuIcon />
            <span>Menu</span>
          </span>
          <span className="menu-toggle-open">
            <CloseIcon />
            <span>Close</span>
          </span>
        </button>
      </nav>
      <div id="mobile-menu" className="mobile-panel" popover="auto">
        <SearchBox id="mobile-search" />
        <nav aria-label="Mobile">
          <NavItems idPrefix="mobile" />
        </nav>
        <AccountArea panel="mobile-menu" />
      </div>
      <script dangerouslySetInnerHTML={{ __html: HEADER_READY_SCRIPT.text }} />
    </header>
  );
}
