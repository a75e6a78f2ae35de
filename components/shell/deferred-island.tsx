'use client';

import { createElement, useEffect, useState, useSyncExternalStore, type ComponentType } from 'react';

export interface DeferredIslandOptions {
  /** The wrapper's element: `span` where the island sits among phrasing content (a button in a line of text). */
  as?: 'div' | 'span';
  /**
   * The server's markup invites a click that only the island's code can answer (a dialog's button), and nothing
   * in it says so: make it inert until the island has rendered, so neither a visitor nor a test clicks a dead
   * button. Islands that already render disabled or `data-state="loading"` until their state is known need not.
   */
  inertUntilLoaded?: boolean;
}

const noSubscription = () => () => {};

/** False while React hydrates the server's HTML, true afterwards and in a browser-only render. */
const useHydrated = () =>
  useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );

/**
 * A client island whose code is not part of the page's first load (decision 031).
 *
 * The server renders the island in full, synchronously (`server`: never behind a Suspense fallback streamed later,
 * which React.lazy gave when the server's import had not resolved by the first flush), so the HTML (what crawlers,
 * link previews and a phone's first paint see) is unchanged. In the browser its code is an async chunk the HTML does not name, asked for as the page
 * hydrates; meanwhile the island's markup stays as the server sent it, inside a wrapper (`display: contents`, so
 * layout ignores it) that React hydrates without its children. When the chunk arrives the island is rendered over
 * that markup, from the state of the moment (the session is known by then).
 *
 * Why not `React.lazy` over the server's markup: React keeps a boundary whose code is missing "dehydrated", and any
 * context change above it before the code arrives (the session restore, a few milliseconds after hydration)
 * makes React drop the server's markup and show the fallback until the chunk comes: the island blinked out.
 *
 * Until it renders, the island's markup does nothing on a click (React has no code for it), so an island whose
 * markup invites a click renders it disabled or `data-state="loading"` until its state is known (the like, watch
 * later and follow buttons do), or asks for `inertUntilLoaded`.
 *
 * `load` must be a literal `import()` of a client module for the bundler to split it out, and `server` the same
 * component required only where `typeof window` is `'undefined'` (the bundler replaces it, and drops the `require`
 * from the browser's bundle), for example:
 * `deferredIsland(() => import('./Comments').then((m) => m.Comments), typeof window === 'undefined' ? require('./Comments').Comments : null, 'Comments')`.
 */
export function deferredIsland<Props extends object>(
  load: () => Promise<ComponentType<Props>>,
  server: ComponentType<Props> | null,
  name: string,
  options: DeferredIslandOptions = {},
): ComponentType<Props> {
  const { as = 'div', inertUntilLoaded = false } = options;
  let loaded: ComponentType<Props> | null = null;
  let loading: Promise<ComponentType<Props>> | null = null;
  const fetchIsland = () =>
    (loading ??= load().then((component) => {
      loaded = component;
      return component;
    }));
  if (typeof window === 'undefined' && !server) throw new Error(`deferredIsland(${name}): the server needs the island itself`);

  function Deferred(props: Props) {
    const hydrated = useHydrated();
    // A later render in the browser (a second card, a list that grew) starts from the loaded island when there is one.
    const [Island, setIsland] = useState<ComponentType<Props> | null>(() => (hydrated ? loaded : null));
    // Asked for as the page hydrates, not after: one round trip sooner (the promise is shared, so once per island type).
    if (typeof window !== 'undefined' && !Island) fetchIsland().catch(() => {});
    useEffect(() => {
      if (Island) return;
      let live = true;
      fetchIsland().then(
        (component) => live && setIsland(() => component),
        (error: unknown) => console.error(`Could not load ${name}:`, error),
      );
      return () => {
        live = false;
      };
    }, [Island]);

    const wrapper = { 'data-island': name, style: { display: 'contents' } } as const;
    // Until the island renders, the wrapper says so (`data-state="loading"`, as the islands' buttons do): the markup
    // inside is the server's and will be replaced, so a test waits for the attribute to go before holding an element.
    const waiting = { ...wrapper, 'data-state': 'loading', inert: inertUntilLoaded || undefined };
    if (typeof window === 'undefined') return createElement(as, waiting, server && createElement(server, props));
    if (Island) return createElement(as, wrapper, createElement(Island, props));
    // Hydration keeps the server's markup (React does not compare a dangerouslySetInnerHTML element's children);
    // a render in the browser alone has no markup to keep and shows nothing until the code is here.
    return createElement(as, { ...waiting, suppressHydrationWarning: true, dangerouslySetInnerHTML: { __html: '' } });
  }
  Deferred.displayName = `Deferred(${name})`;
  return Deferred;
}
