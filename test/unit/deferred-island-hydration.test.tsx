/**
 * @jest-environment jsdom
 */
// jsdom: hydration in a document; the server's HTML is written as React's server renders it (deferred-island.test.tsx).
import { createContext, act, useContext, useEffect, useState } from 'react';
import { hydrateRoot } from 'react-dom/client';

import { deferredIsland } from '@/components/shell/deferred-island';

// React's act() environment flag, so updates are flushed inside act().
(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

/** Stands in for the session: loading on the server and at hydration, known right after. */
const Session = createContext('loading');

function Island({ count }: { count: number }) {
  const session = useContext(Session);
  return (
    <button type="button" data-state={session}>
      Pressed {count} times
    </button>
  );
}

function App({ island: Deferred }: { island: React.ComponentType<{ count: number }> }) {
  const [session, setSession] = useState('loading');
  // As the session restore does: the answer comes after hydration, from a promise.
  useEffect(() => void Promise.resolve().then(() => setSession('visitor')), []);
  return (
    <Session.Provider value={session}>
      <main>
        <Deferred count={3} />
      </main>
    </Session.Provider>
  );
}

const SERVER_HTML = '<main><span data-island="Island" style="display:contents" data-state="loading" inert=""><button type="button" data-state="loading">Pressed <!-- -->3<!-- --> times</button></span></main>';

describe('deferredIsland in the browser', () => {
  it('keeps the server markup through hydration and a context change, then renders the island when its code arrives', async () => {
    let arrive: (component: typeof Island) => void = () => {};
    const code = new Promise<typeof Island>((resolve) => (arrive = resolve));
    const Deferred = deferredIsland(() => code, null, 'Island', { as: 'span', inertUntilLoaded: true });
    const container = document.createElement('div');
    container.innerHTML = SERVER_HTML;
    document.body.append(container);
    const serverButton = container.querySelector('button');
    const errors: unknown[] = [];

    await act(async () => {
      hydrateRoot(container, <App island={Deferred} />, { onRecoverableError: (error) => errors.push(error) });
    });
    // Hydrated, the session changed, the code is not here: the server's button is still the one in the page, inert.
    expect(container.querySelector('button')).toBe(serverButton);
    expect(container.querySelector('[data-island]')?.hasAttribute('inert')).toBe(true);

    await act(async () => arrive(Island));
    const button = container.querySelector('button');
    expect(button?.textContent).toBe('Pressed 3 times');
    expect(button?.dataset.state).toBe('visitor');
    expect(container.querySelector('[data-island]')?.hasAttribute('inert')).toBe(false);
    expect(container.querySelector('[data-island]')?.hasAttribute('data-state')).toBe(false);
    expect(container.querySelectorAll('button')).toHaveLength(1);
    expect(errors).toEqual([]);
  });

  it('renders a second instance mounted in the browser at once, from the loaded code', async () => {
    const Deferred = deferredIsland(async () => Island, null, 'Island');
    const container = document.createElement('div');
    document.body.append(container);
    const { createRoot } = await import('react-dom/client');
    const root = createRoot(container);
    await act(async () => root.render(<Deferred count={1} />));
    expect(container.querySelector('button')?.textContent).toBe('Pressed 1 times');
    await act(async () => root.render(<><Deferred count={1} /><Deferred count={2} /></>));
    expect(container.querySelectorAll('button')).toHaveLength(2);
  });
});
