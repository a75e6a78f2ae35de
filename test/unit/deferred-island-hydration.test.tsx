/**
 * @jest-environment jsdom
 */
// jsdom: hydration in a document; the server's HTML is what React's server renders for the same tree.
import { PathnameContext } from 'next/dist/shared/lib/hooks-client-context.shared-runtime';
import { act, createContext, useContext, useEffect, useState, type ComponentType } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';

import { SessionContext, useSession } from '@/components/session/SessionProvider';
import { createSessionStore, type SessionStore } from '@/components/session/session-store';
import { deferredIsland, type DeferredIslandOptions } from '@/components/shell/deferred-island';

// React's act() environment flag, so updates are flushed inside act().
(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const noActions = { login: jest.fn(), completeTwoFactor: jest.fn(), logout: jest.fn(), refreshUser: jest.fn(), updateUser: jest.fn() };

/** A context of the page that no island is given: changing it must not disturb a waiting island. */
const Theme = createContext('dark');

function Island({ count }: { count: number }) {
  const { loading } = useSession();
  const pathname = useContext(PathnameContext);
  return (
    <button type="button" data-state={loading ? 'loading' : 'visitor'} data-path={pathname ?? ''}>
      Pressed {count} times
    </button>
  );
}

/** A header in the page's own root that reads the session too, as the account area does. */
function Header() {
  return <p>{useSession().loading ? 'restoring' : 'restored'}</p>;
}

function App({ island: Deferred, store }: { island: ComponentType<{ count: number }>; store: SessionStore }) {
  const [theme, setTheme] = useState('dark');
  // As the session restore does: the answer comes after hydration, from a promise; a context of the page changes too.
  useEffect(() => {
    void Promise.resolve().then(() => {
      store.set({ loading: false });
      setTheme('light');
    });
  }, [store]);
  return (
    <SessionContext.Provider value={{ store, actions: noActions }}>
      <PathnameContext.Provider value="/video/abc">
        <Theme.Provider value={theme}>
          <Header />
          <main>
            <Deferred count={3} />
          </main>
        </Theme.Provider>
      </PathnameContext.Provider>
    </SessionContext.Provider>
  );
}

/**
 * What deferredIsland renders on the server (deferred-island.test.tsx checks it there): jsdom has a window, so
 * deferredIsland itself takes the browser's path here.
 */
function onServer({ as: Wrapper = 'div', inertUntilLoaded }: DeferredIslandOptions) {
  return function ServerDeferred(props: { count: number }) {
    return (
      <Wrapper data-island="Island" data-state="loading" inert={inertUntilLoaded || undefined} style={{ display: 'contents' }}>
        <Island {...props} />
      </Wrapper>
    );
  };
}

/** Lets the island's tasks run (lib/client/own-task.ts): asking for its code, then making its root. */
const settle = () => act(async () => new Promise((resolve) => setTimeout(resolve, 10)));

async function hydrate(options: DeferredIslandOptions, load: () => Promise<typeof Island>) {
  const container = document.createElement('div');
  container.innerHTML = renderToString(<App island={onServer(options)} store={createSessionStore()} />);
  document.body.append(container);
  const errors: unknown[] = [];
  const store = createSessionStore();
  const Deferred = deferredIsland(load, null, 'Island', options);
  await act(async () => {
    hydrateRoot(container, <App island={Deferred} store={store} />, { onRecoverableError: (error) => errors.push(error) });
  });
  return { container, errors };
}

describe('deferredIsland in the browser', () => {
  it('keeps the server markup while its code loads, through context changes, then hydrates those same elements', async () => {
    let arrive: (component: typeof Island) => void = () => {};
    const code = new Promise<typeof Island>((resolve) => (arrive = resolve));
    const { container, errors } = await hydrate({ as: 'span', inertUntilLoaded: true }, () => code);
    const serverButton = container.querySelector('button');
    const wrapper = container.querySelector('[data-island]');

    // Hydrated, the session restored (the header shows it), the code is not here: the server's button stays, inert.
    expect(container.querySelector('p')?.textContent).toBe('restored');
    expect(container.querySelector('button')).toBe(serverButton);
    expect(serverButton?.dataset.state).toBe('loading');
    expect(wrapper?.hasAttribute('inert')).toBe(true);
    expect(wrapper?.getAttribute('data-state')).toBe('loading');

    await settle();
    await act(async () => arrive(Island));
    // The code's arrival makes no root in the task it arrives in: the root is made in a task of its own.
    expect(wrapper?.getAttribute('data-state')).toBe('loading');
    await settle();
    // Hydrated, not drawn again: the same element, answering from the page's session and router of the moment.
    expect(container.querySelector('button')).toBe(serverButton);
    expect(serverButton?.dataset.state).toBe('visitor');
    expect(serverButton?.dataset.path).toBe('/video/abc');
    expect(wrapper?.hasAttribute('inert')).toBe(false);
    expect(wrapper?.hasAttribute('data-state')).toBe(false);
    expect(container.querySelectorAll('button')).toHaveLength(1);
    expect(errors).toEqual([]);
  });

  it('keeps the server markup when the code cannot load', async () => {
    const failed = jest.spyOn(console, 'error').mockImplementation(() => {});
    const { container, errors } = await hydrate({}, () => Promise.reject(new Error('chunk failed')));
    const serverButton = container.querySelector('button');
    await settle();
    expect(container.querySelector('button')).toBe(serverButton);
    expect(container.querySelector('[data-island]')?.getAttribute('data-state')).toBe('loading');
    expect(errors).toEqual([]);
    expect(failed).toHaveBeenCalledWith('Could not load Island:', expect.any(Error));
    failed.mockRestore();
  });

  it('renders instances mounted in the browser, passes new props on, and unmounts the island with its wrapper', async () => {
    const unmounted = jest.fn();
    function Counted({ count }: { count: number }) {
      useEffect(() => unmounted, []);
      return <button type="button">Pressed {count} times</button>;
    }
    const Deferred = deferredIsland(async () => Counted, null, 'Counted');
    const container = document.createElement('div');
    document.body.append(container);
    const { createRoot } = await import('react-dom/client');
    const root = createRoot(container);
    const store = createSessionStore();
    const page = (children: React.ReactNode) => <SessionContext.Provider value={{ store, actions: noActions }}>{children}</SessionContext.Provider>;
    await act(async () => root.render(page([<Deferred key="a" count={1} />])));
    await settle();
    expect(container.querySelector('button')?.textContent).toBe('Pressed 1 times');
    expect(container.querySelector('[data-island]')?.hasAttribute('data-state')).toBe(false);

    await act(async () => root.render(page([<Deferred key="a" count={4} />, <Deferred key="b" count={2} />])));
    await settle();
    expect([...container.querySelectorAll('button')].map((button) => button.textContent)).toEqual(['Pressed 4 times', 'Pressed 2 times']);

    await act(async () => root.render(page(null)));
    await settle();
    expect(container.querySelectorAll('button')).toHaveLength(0);
    expect(unmounted).toHaveBeenCalledTimes(2);
  });
});

// The session store on its own: a change reaches the components that read it, once per change.
describe('createSessionStore', () => {
  it('notifies its readers of a change, and not of a change to the same values', () => {
    const store = createSessionStore();
    const listener = jest.fn();
    const stop = store.subscribe(listener);
    store.set({ loading: false });
    store.set({ loading: false });
    store.set((state) => ({ token: state.token }));
    expect(listener).toHaveBeenCalledTimes(1);
    stop();
    store.set({ token: 'x' });
    expect(listener).toHaveBeenCalledTimes(1);
    expect(store.get()).toEqual({ loading: false, user: null, token: 'x' });
  });
});
