'use client';

import { useEffect } from 'react';

/**
 * Cards' hover previews (issue 35): a listener on the document, so no card carries any script. Their code
 * (card-preview.ts) loads on the first pointer or touch on a card that has a preview clip, and takes that event.
 */
export function CardPreviews() {
  useEffect(() => {
    const first = (event: Event) => {
      // A touch sends pointerover too: touches are taken from touchstart, where the hold begins.
      if (event instanceof PointerEvent && event.pointerType === 'touch') return;
      if (!(event.target instanceof Element) || !event.target.closest('[data-preview]')) return;
      document.removeEventListener('pointerover', first);
      document.removeEventListener('touchstart', first);
      void import('./card-preview').then(({ installCardPreviews }) => installCardPreviews(event));
    };
    document.addEventListener('pointerover', first);
    document.addEventListener('touchstart', first, { passive: true });
    return () => {
      document.removeEventListener('pointerover', first);
      document.removeEventListener('touchstart', first);
    };
  }, []);
  return null;
}
