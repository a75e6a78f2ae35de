'use client';

import { lazy, Suspense, type ComponentType } from 'react';

/**
 * A client island whose code is not part of the page's first load (decision 031).
 *
 * The server renders the island in full, so the HTML (what crawlers, link previews and a phone's first paint see)
 * is unchanged. In the browser the island's code is an async chunk the HTML does not name: React hydrates the rest
 * of the page at once, asks for the chunk when hydration reaches the island, and hydrates the island when it
 * arrives, keeping the server's markup meanwhile. Only the island's own Suspense boundary waits.
 *
 * Use it for islands that need not answer before the page has hydrated: below the fold, or under a click a visitor
 * makes after reading. Until it hydrates, a click on the island is dropped by React (it cannot replay it on code it
 * does not have), so an island whose server markup invites a click should render it disabled or inert until its
 * session or state is known, as the like and comment islands already do.
 *
 * `load` must be a literal `import()` of a client module for the bundler to split it out, for example
 * `deferredIsland(() => import('./Comments').then((m) => m.Comments))`.
 */
export function deferredIsland<Props extends object>(load: () => Promise<ComponentType<Props>>, name: string): ComponentType<Props> {
  const Island = lazy(() => load().then((component) => ({ default: component })));
  function Deferred(props: Props) {
    return (
      <Suspense fallback={null}>
        <Island {...props} />
      </Suspense>
    );
  }
  Deferred.displayName = `Deferred(${name})`;
  return Deferred;
}
