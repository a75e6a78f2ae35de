import { renderToString } from 'react-dom/server';

import { deferredIsland } from '@/components/shell/deferred-island';

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
