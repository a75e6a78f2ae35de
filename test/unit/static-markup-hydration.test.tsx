/**
 * @jest-environment jsdom
 */
// jsdom: the browser's side of static markup (decision 033) over the HTML the server writes for it.
import { act, useEffect } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';

import { SessionContext, useSession } from '@/components/session/SessionProvider';
import { createSessionStore, type SessionStore } from '@/components/session/session-store';
import { deferredIsland } from '@/components/shell/deferred-island';
import { staticMarkup } from '@/components/shell/static-markup';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const noActions = { login: jest.fn(), completeTwoFactor: jest.fn(), logout: jest.fn(), refreshUser: jest.fn(), updateUser: jest.fn() };

function Island({ count }: { count: number }) {
  const { loading } = useSession();
  return (
    <button type="button" data-state={loading ? 'loading' : 'visitor'}>
      Pressed {count} times
    </button>
  );
}

/** What staticMarkup and deferredIsland write on the server (deferred-island.test.tsx checks it there). */
function ServerHeader() {
  return (
    <div data-static="Header" style={{ display: 'contents' }}>
      <header>
        <h1>Hello</h1>
        <div data-island="Island" data-state="loading" data-props={JSON.stringify({ count: 3 })} style={{ display: 'contents' }}>
          <Island count={3} />
        </div>
      </header>
    </div>
  );
}

function App({ header: Header, store }: { header: React.ComponentType; store: SessionStore }) {
  useEffect(() => void Promise.resolve().then(() => store.set({ loading: false })), [store]);
  return (
    <SessionContext.Provider value={{ store, actions: noActions }}>
      <Header />
      <main>page</main>
    </SessionContext.Provider>
  );
}

function serverPage() {
  const container = document.createElement('div');
  container.innerHTML = renderToString(<App header={ServerHeader} store={createSessionStore()} />);
  document.body.append(container);
  return container;
}

const settle = () => act(async () => new Promise((resolve) => setTimeout(resolve, 10)));

describe('staticMarkup in the browser', () => {
  afterEach(() => document.body.replaceChildren());

  it('leaves the server markup as it is, and hydrates the islands inside it with the props the server wrote', async () => {
    const container = serverPage();
    const heading = container.querySelector('h1');
    const button = container.querySelector('button');
    const Island$ = deferredIsland(async () => Island, null, 'Island');
    const Header = staticMarkup(() => Promise.reject(new Error('not needed over server markup')), null, 'Header', [Island$]);
    const errors: unknown[] = [];
    await act(async () => {
      hydrateRoot(container, <App header={Header} store={createSessionStore()} />, { onRecoverableError: (error) => errors.push(error) });
    });
    await settle();
    expect(errors).toEqual([]);
    // The same elements, never drawn again; the island answers from the page's session, with its server props.
    expect(container.querySelector('h1')).toBe(heading);
    expect(container.querySelector('button')).toBe(button);
    expect(button?.textContent).toBe('Pressed 3 times');
    expect(button?.dataset.state).toBe('visitor');
    expect(container.querySelector('[data-island]')?.hasAttribute('data-state')).toBe(false);
  });

  it('renders the component from its code in a document React draws in the browser (a 404 page)', async () => {
    const container = document.createElement('div');
    document.body.append(container);
    const Island$ = deferredIsland(async () => Island, null, 'Island');
    function BrowserHeader({ title }: { title: string }) {
      return (
        <header>
          <h1>{title}</h1>
          <Island$ count={3} />
        </header>
      );
    }
    const Header = staticMarkup(async () => BrowserHeader, null, 'Header', [Island$]);
    await act(async () => {
      createRoot(container).render(<App header={() => <Header title="Hello" />} store={createSessionStore()} />);
    });
    await settle();
    expect(container.querySelector('h1')?.textContent).toBe('Hello');
    expect(container.querySelectorAll('button')).toHaveLength(1);
    expect(container.querySelector('button')?.dataset.state).toBe('visitor');
    expect(container.querySelector('[data-island]')?.hasAttribute('data-state')).toBe(false);
  });
});
