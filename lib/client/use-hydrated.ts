import { startTransition, useEffect, useState } from 'react';

/**
 * False in the server's HTML and while React hydrates it, true from the render after hydration on. A control whose
 * handler only exists once React has hydrated renders as busy and disabled until then (issue 37): a click on server
 * HTML React has not hydrated yet would be lost, and a disabled control is not clicked (by a person or a test) until
 * it can answer.
 *
 * The flip is a transition (decision 042): React renders it in slices between other work. useSyncExternalStore, the
 * usual way to tell hydration apart, re-renders every reader synchronously after hydration, and with a like and a
 * watch-later button on every card that was one long task on pages with cards. The price: a control first drawn in
 * the browser (after a client navigation, in a dialog) is also disabled for its first render, a frame at most; its
 * first render cannot know whether it is hydrating without React's internals.
 */
export function useHydrated(): boolean {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => startTransition(() => setHydrated(true)), []);
  return hydrated;
}
