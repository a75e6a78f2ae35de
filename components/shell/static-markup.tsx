'use client';

import { createElement, lazy, Suspense, useEffect, useRef, type ComponentType } from 'react';

import { InsideStaticMarkup, useBridgedValues, useRenderedOverServerMarkup, type HydratableIsland } from './deferred-island';

/** The wrappers of the islands hydrated inside static markup. */
const hydratedIslands = new WeakSet<HTMLElement>();

/**
 * Markup the server renders and the browser never hydrates (decision 033), for the root layout (which lives as long
 * as the document): the site's header, footer and age gate, whose behaviour is inline scripts and the browser's own
 * popovers, not React. The page's root hydrates the wrapper
 * (`display: contents`, `data-static`) as an opaque element, so neither the markup's elements nor its code are in the
 * first load's work: `server` is required only where `typeof window` is `'undefined'` (as for deferred islands), and
 * the RSC payload carries the component's props instead of its elements.
 *
 * Deferred islands inside it (`islands`: the account area in the header, the admin link in the footer) are hydrated
 * in roots of their own when their code arrives, over the wrappers the server wrote, with the props the server
 * serialised on them (`data-props`).
 *
 * A document React draws in the browser has no server markup to keep (Next's 404 pages, a render after a hydration
 * error): there the component's code is fetched (`load`, a literal `import()`; static-parts.ts holds the root
 * layout's three in one chunk) and rendered as any component, islands and all.
 */
export function staticMarkup<Props extends object>(
  load: () => Promise<ComponentType<Props>>,
  server: ComponentType<Props> | null,
  name: string,
  islands: HydratableIsland[] = [],
): ComponentType<Props> {
  if (typeof window === 'undefined' && !server) throw new Error(`staticMarkup(${name}): the server needs the markup itself`);
  const InBrowser = lazy(() => load().then((component) => ({ default: component })));

  function Static(props: Props) {
    // Whether this wrapper holds the server's markup (its first render hydrated it), for good.
    const fromServer = useRenderedOverServerMarkup();
    const values = useBridgedValues();
    const wrapper = useRef<HTMLDivElement>(null);

    useEffect(() => {
      const element = wrapper.current;
      if (!fromServer || !element) return;
      for (const island of islands) {
        for (const target of element.querySelectorAll<HTMLElement>(`[data-island="${island.islandName}"]`)) {
          // Once per wrapper, though Strict Mode runs this effect twice in development. The roots are never unmounted:
          // static markup is the root layout's, which lives as long as the document.
          if (!hydratedIslands.has(target)) void island.hydrateInto(target, values);
          hydratedIslands.add(target);
        }
      }
      // The bridged contexts never change identity (decision 031): the islands hydrate once.
      // eslint-disable-next-line react-hooks/exhaustive-deps
    }, []);

    const marks = { 'data-static': name, style: { display: 'contents' } } as const;
    if (typeof window === 'undefined') {
      return (
        <div {...marks}>
          <InsideStaticMarkup value>{server && createElement(server, props)}</InsideStaticMarkup>
        </div>
      );
    }
    // Over the server's markup: an opaque element, whose children React neither compares nor touches.
    if (fromServer) return <div {...marks} ref={wrapper} suppressHydrationWarning dangerouslySetInnerHTML={{ __html: '' }} />;
    return (
      <div {...marks}>
        <Suspense fallback={null}>
          <InBrowser {...props} />
        </Suspense>
      </div>
    );
  }
  return Static;
}
