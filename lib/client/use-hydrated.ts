import { useSyncExternalStore } from 'react';

const noSubscription = () => () => {};

/**
 * False in the server's HTML and while React hydrates it, true from the render after hydration on (and at once in a
 * component first drawn in the browser). A control whose handler only exists once React has hydrated renders as
 * busy and disabled until then (issue 37): a click on server HTML React has not hydrated yet would be lost, and a
 * disabled control is not clicked (by a person or a test) until it can answer.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
}
