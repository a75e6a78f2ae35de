'use client';

import { usePathname } from 'next/navigation';
import { useEffect, useId, useRef, useState } from 'react';

import { ChevronDownIcon } from '@/components/icons';
import { CATEGORIES } from '@/lib/site';

/** A disclosure menu: the button toggles a list of category links; Escape and outside clicks close it. */
export function CategoriesMenu() {
  const pathname = usePathname();
  // Open only on the path where it was opened: following a link closes it.
  const [openOn, setOpenOn] = useState<string | null>(null);
  const open = openOn === pathname;
  const setOpen = (value: boolean) => setOpenOn(value ? pathname : null);
  const menuId = useId();
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (!open) return;
    const onPointerDown = (event: PointerEvent) => {
      if (!root.current?.contains(event.target as Node)) setOpenOn(null);
    };
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        setOpenOn(null);
        button.current?.focus();
      }
    };
    const onFocusOut = (event: FocusEvent) => {
      if (!root.current?.contains(event.relatedTarget as Node | null)) setOpenOn(null);
    };
    const element = root.current;
    document.addEventListener('pointerdown', onPointerDown);
    document.addEventListener('keydown', onKeyDown);
    element?.addEventListener('focusout', onFocusOut);
    return () => {
      document.removeEventListener('pointerdown', onPointerDown);
      document.removeEventListener('keydown', onKeyDown);
      element?.removeEventListener('focusout', onFocusOut);
    };
  }, [open]);

  return (
    <div className="dropdown" ref={root}>
      <button
        ref={button}
        type="button"
        className="nav-link"
        aria-expanded={open}
        aria-controls={menuId}
        onClick={() => setOpen(!open)}
      >
        Categories <ChevronDownIcon />
      </button>
      <ul id={menuId} className="dropdown-menu" hidden={!open}>
        {CATEGORIES.map((category) => (
          <li key={category}>
            <a href={`/category/${category}`} aria-current={pathname === `/category/${category}` ? 'page' : undefined}>
              {category}
            </a>
          </li>
        ))}
      </ul>
    </div>
  );
}
