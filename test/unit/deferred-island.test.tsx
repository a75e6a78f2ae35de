import { renderToString } from 'react-dom/server';

import { deferredIsland } from '@/components/shell/deferred-island';
import { staticMarkup } from '@/components/shell/static-markup';

function Island({ count }: { count: number }) {
  return <button type="button">Pressed {count} times</button>;
}

describe('deferredIsland on the server', () => {
  // renderToString gives what a render writes before its first flush: a streamed fallback would show here.
  it('renders the island in full inside its wrapper, synchronously, not behind a fallback', () => {
    const Deferred = deferredIsland(async () => Island, Island, 'Island', { as: 'span' });
    expect(renderToString(<Deferred count={3} />)).toBe('<span data-island="Island" data-state="loading" style="display:contents"><button type="button">Pressed <!-- -->3<!-- --> times</button></span>');
  });

  it('marks the wrapper inert when the markup has nothing to say it is not ready', () => {
    const Deferred = deferredIsland(async () => Island, Island, 'Island', { inertUntilLoaded: true });
    expect(renderToString(<Deferred count={1} />)).toMatch(/^<div data-island="Island" data-state="loading" inert="" style="display:contents"><button/);
  });
});

describe('staticMarkup on the server', () => {
  it('renders the markup in its wrapper, and writes the props of the islands inside it on their wrappers', () => {
    const Deferred = deferredIsland(async () => Island, Island, 'Island');
    function Header({ title }: { title: string }) {
      return (
        <header>
          <h1>{title}</h1>
          <Deferred count={3} />
        </header>
      );
    }
    const Static = staticMarkup(async () => Header, Header, 'Header', [Deferred]);
    expect(renderToString(<Static title="Hello" />)).toBe(
      '<div data-static="Header" style="display:contents"><header><h1>Hello</h1><div data-island="Island" data-state="loading" style="display:contents" data-props="{&quot;count&quot;:3}"><button type="button">Pressed <!-- -->3<!-- --> times</button></div></header></div>',
    );
    // Outside static markup the page's root renders the island in the browser: its props are not written out.
    expect(renderToString(<Deferred count={3} />)).not.toContain('data-props');
  });
});
