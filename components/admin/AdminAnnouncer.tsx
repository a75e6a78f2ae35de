'use client';

import { createContext, useCallback, useContext, useState, type ReactNode } from 'react';

/** Tells the admin page what an action did, where the message outlives the item it was about. */
const AnnounceContext = createContext<((message: string) => void) | null>(null);

/** The announcer of the admin page around the caller (the admin layout provides it). */
export function useAdminAnnounce(): (message: string) => void {
  const announce = useContext(AnnounceContext);
  if (!announce) throw new Error('useAdminAnnounce must be used within the admin layout (AdminAnnouncer)');
  return announce;
}

/**
 * The admin panel's confirmation line. An action's success message used to sit in the item's card, and the
 * refresh that follows the action often removes that card (a decided appeal leaves the open list, a closed
 * report the queue), taking the message with it as soon as the data came back. Here, in the admin layout, it
 * stays on screen (stuck to the bottom of the window) until the next action or page.
 */
export function AdminAnnouncer({ children }: { children: ReactNode }) {
  const [announcement, setAnnouncement] = useState<{ text: string; count: number } | null>(null);
  const announce = useCallback(
    (text: string) => setAnnouncement((previous) => ({ text, count: (previous?.count ?? 0) + 1 })),
    [],
  );
  return (
    <AnnounceContext.Provider value={announce}>
      {children}
      <p className="admin-announcement" role="status" aria-live="polite">
        {/* A new key for each announcement, so the same message twice is read out twice. */}
        {announcement && <span key={announcement.count}>{announcement.text}</span>}
      </p>
    </AnnounceContext.Provider>
  );
}
