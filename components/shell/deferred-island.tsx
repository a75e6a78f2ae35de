'use client';

import { AppRouterContext, LayoutRouterContext } from 'next/dist/shared/lib/app-router-context.shared-runtime';
import { PathnameContext, PathParamsContext, SearchParamsContext } from 'next/dist/shared/lib/hooks-client-context.shared-runtime';
import { createContext, createElement, startTransition, useContext, useEffect, useId, useLayoutEffect, useRef, type ComponentType, type Context, type ReactNode, type RefObject } from 'react';
import { createRoot, hydrateRoot, type Root } from 'react-dom/client';

import { SessionContext } from '@/components/session/SessionProvider';
import { inTaskOfItsOwn, taskOfItsOwn } from '@/lib/client/own-task';

export interface DeferredIslandOptions {
  /** The wrapper's element: `span` where the island sits among phrasing content (a button in a line of text). */
  as?: 'div' | 'span';
  /**
   * The server's markup invites a click that only the island's code can answer (a dialog's button), and nothing
   * in it says so: make it inert until the island has hydrated, so neither a visitor nor a test clicks a dead
   * button. Islands that already render disabled or `data-state="loading"` until their state is known need not.
   */
  inertUntilLoaded?: boolean;
}

/**
 * The contexts an island may read, carried from the page's root into the island's own: the session (a store that
 * never changes identity) and Next's router (`useRouter`, `usePathname`, `useSearchParams`, `useParams`). Next's
 * are its shared-runtime singletons, the same objects its own hooks read.
 */
const BRIDGED: Context<unknown>[] = [SessionContext, AppRouterContext, LayoutRouterContext, PathnameContext, SearchParamsContext, PathParamsContext] as Context<unknown>[];

function Bridge({ values, children }: { values: unknown[]; children: ReactNode }) {
  return BRIDGED.reduceRight<ReactNode>((inner, context, index) => createElement(context.Provider, { value: values[index] }, inner), children);
}

/** Inside the island's root, after the island: takes the wrapper's loading marks off once the island has hydrated or rendered. */
function Ready({ wrapper }: { wrapper: HTMLElement }) {
  useLayoutEffect(() => {
    wrapper.removeAttribute('data-state');
    wrapper.removeAttribute('inert');
  }, [wrapper]);
  return null;
}

/** How React spells an id it made while hydrating: from the tree's position, after an upper-case R (`_R_1h_`, `_R_1hH1_`). */
const HYDRATION_ID = /R_[0-9a-v]*(?:H[0-9a-v]+)?_$/;

/**
 * Whether this component's first render hydrated the server's markup (true), or drew it in the browser (false: a
 * client navigation, a 404 page, a render after a hydration error); the same answer for the component's life.
 *
 * React's `useId` knows without a second render: an id made while hydrating comes from the tree's position and is
 * spelled with an upper-case R, one made in the browser comes from a counter and a lower-case r (React DOM's
 * `mountId`; test/unit/hydration-id.test.tsx pins both spellings). `useSyncExternalStore` with a server snapshot
 * would answer too, but React then renders every such component again, synchronously, right after hydration:
 * about 54 ms of the video page's main thread on a phone (decision 037).
 */
export function useRenderedOverServerMarkup(): boolean {
  return HYDRATION_ID.test(useId());
}

let roots = 0;

/** Whether this island renders inside static markup (static-markup.tsx), whose root never renders it in the browser. */
export const InsideStaticMarkup = createContext(false);

/** How static markup (static-markup.tsx) hydrates a deferred island without rendering it. */
export interface HydratableIsland {
  islandName: string;
  /**
   * Hydrates the island over one of its server-rendered wrappers, with the props the server wrote on it
   * (`data-props`) and the page's bridged context values, once its code has arrived.
   */
  hydrateInto(wrapper: HTMLElement, values: unknown[]): Promise<void>;
}

/** A deferred island as a component. */
export type DeferredIsland<Props extends object> = ComponentType<Props> & HydratableIsland;

/** Reads the page's contexts that islands are given, from the page's root (a fixed list, the same hooks each render). */
export function useBridgedValues(): unknown[] {
  // eslint-disable-next-line react-hooks/rules-of-hooks -- a fixed list, the same hooks every render
  return BRIDGED.map((context) => useContext(context));
}

/** The island's tree in its own root: the page's contexts, the island, and the mark that it is ready. */
function islandTree<Props extends object>(Island: ComponentType<Props>, props: Props, values: unknown[], wrapper: HTMLElement) {
  return (
    <Bridge values={values}>
      <Island {...props} />
      <Ready wrapper={wrapper} />
    </Bridge>
  );
}

/**
 * A client island whose code is not part of the page's first load, hydrated in a React root of its own when the code
 * arrives (decision 031).
 *
 * The server renders the island in full, synchronously (`server`: never behind a Suspense fallback streamed later),
 * inside a wrapper element (`display: contents`, so layout ignores it; `data-state="loading"` until the island has
 * hydrated, for tests to wait on). The page's root hydrates the wrapper as an opaque element (an empty
 * `dangerouslySetInnerHTML`, whose children React neither compares nor touches), so the server's markup stays as
 * it is. The island's chunk, which the HTML does not name, is asked for as the page hydrates; when it arrives the
 * island is hydrated over that markup in its own root (the same elements: nothing drawn again, the first picture
 * stays the page's LCP), as a transition, which React slices into short tasks. Asking for the chunk and making the
 * root each run in a task of their own (lib/client/own-task.ts), not piled into the page's hydration or the chunk's arrival.
 * A browser-only render (no server markup) renders it there instead.
 *
 * Why not the alternatives, measured (decision 031): rendering the island anew over the server's markup made new
 * elements for every card, which doubled home's main-thread work on a phone (TBT 126 → 549 ms); `React.lazy` in a
 * Suspense boundary hydrates in place, but React's streaming renderer moves any finished boundary over 500 bytes
 * out of line once the page has passed 12.8 KB (a hidden `<div>` at the end of the document, shown by a script),
 * which took home's feeds out of the first paint (CLS 0.34) and out of the HTML where crawlers read it.
 *
 * The island's root gets the page's session and Next's router contexts (`BRIDGED`), and ids of its own
 * (`identifierPrefix`). Until it hydrates, its markup does nothing on a click (React has no code for it), so an
 * island whose markup invites a click renders it disabled or `data-state="loading"` until its state is known (the
 * like, watch later and follow buttons do), or asks for `inertUntilLoaded`.
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
): DeferredIsland<Props> {
  const { as = 'div', inertUntilLoaded = false } = options;
  if (typeof window === 'undefined' && !server) throw new Error(`deferredIsland(${name}): the server needs the island itself`);
  let loading: Promise<ComponentType<Props>> | null = null;
  // Asking for the chunk appends a <script>: in a task of its own, not in the page's hydration or effects (lib/client/own-task.ts).
  const fetchIsland = () => (loading ??= taskOfItsOwn().then(load));
  // Ids of the island's own in each root it gets, so ids made in the browser never repeat across islands.
  const ownIds = () => ({ identifierPrefix: `${name}${++roots}-` });
  // A chunk that cannot load (a dropped connection, a deploy that removed it) leaves the server's markup as it is.
  const onLoadError = (error: unknown) => console.error(`Could not load ${name}:`, error);

  function Deferred(props: Props) {
    // Whether this wrapper holds the server's markup (its first render hydrated it), for good.
    const fromServer = useRenderedOverServerMarkup();
    const values = useBridgedValues();
    const wrapper = useRef<HTMLElement>(null);
    const root = useRef<Root | null>(null);
    // Asked for as the page hydrates, not after its effects: one round trip sooner (once per island type).
    if (typeof window !== 'undefined') fetchIsland().catch(() => {});

    useEffect(() => {
      let live = true;
      fetchIsland().then(
        // Each island's root in a task of its own: the islands sharing a chunk would all start in the task it arrives in.
        (Island) =>
          inTaskOfItsOwn(() => {
            const element = wrapper.current;
            if (!live || !element) return;
            const tree = islandTree(Island, props, values, element);
            if (root.current) root.current.render(tree);
            else if (fromServer) startTransition(() => void (root.current = hydrateRoot(element, tree, ownIds())));
            else (root.current = createRoot(element, ownIds())).render(tree);
          }),
        onLoadError,
      );
      return () => {
        live = false;
      };
      // eslint-disable-next-line react-hooks/exhaustive-deps -- values: the bridged contexts, listed element by element
    }, [props, ...values]);

    // The island's root goes with its wrapper: unmounted after this commit (React refuses to unmount a root while it
    // renders), unless the wrapper was mounted again meanwhile (Strict Mode's second mount in development).
    const mounted = useRef(false);
    useEffect(() => {
      mounted.current = true;
      return () => {
        mounted.current = false;
        setTimeout(() => {
          if (mounted.current || !root.current) return;
          root.current.unmount();
          root.current = null;
        }, 0);
      };
    }, []);

    const Wrapper = as;
    const marks = { 'data-island': name, 'data-state': 'loading', inert: inertUntilLoaded || undefined, style: { display: 'contents' } } as const;
    if (typeof window === 'undefined') {
      // Inside static markup nothing renders this component in the browser: the props travel in the HTML instead.
      // (A hook on the server's path only: `typeof window` never changes within a bundle, and the browser's drops it.)
      // eslint-disable-next-line react-hooks/rules-of-hooks
      const serialised = useContext(InsideStaticMarkup) && Object.keys(props).length > 0 ? JSON.stringify(props) : undefined;
      return (
        <Wrapper {...marks} data-props={serialised}>
          {server && createElement(server, props)}
        </Wrapper>
      );
    }
    // Over the server's markup the wrapper hydrates as an opaque element (React neither compares nor touches the
    // children of an empty dangerouslySetInnerHTML); mounted in the browser it is an empty leaf for the island's root.
    const ref = wrapper as RefObject<HTMLDivElement>;
    if (fromServer) return <Wrapper {...marks} ref={ref} suppressHydrationWarning dangerouslySetInnerHTML={{ __html: '' }} />;
    return <Wrapper {...marks} ref={ref} />;
  }

  // Called from the page's passive effects: the chunk is asked for, and the root made, each in a task of its own.
  const hydrateInto = async (element: HTMLElement, values: unknown[]) => {
    let Island: ComponentType<Props>;
    try {
      Island = await fetchIsland();
    } catch (error) {
      onLoadError(error);
      return;
    }
    await taskOfItsOwn();
    const props = JSON.parse(element.dataset.props ?? '{}') as Props;
    startTransition(() => void hydrateRoot(element, islandTree(Island, props, values, element), ownIds()));
  };
  return Object.assign(Deferred, { islandName: name, hydrateInto });
}
