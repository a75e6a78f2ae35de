import { prerenderToNodeStream } from 'react-dom/static';

import { deferredIsland } from '@/components/shell/deferred-island';

/** What a server sends: the whole document React prerenders, with every Suspense boundary resolved or not. */
async function serverHtml(node: React.ReactNode): Promise<string> {
  const { prelude } = await prerenderToNodeStream(node);
  let html = '';
  for await (const chunk of prelude) html += String(chunk);
  return html;
}

function Island({ count }: { count: number }) {
  return <button type="button">Pressed {count} times</button>;
}

describe('deferredIsland on the server', () => {
  it('renders the island in full inside its wrapper, not behind a fallback', async () => {
    const Deferred = deferredIsland(async () => Island, 'Island', { as: 'span' });
    const html = await serverHtml(<Deferred count={3} />);
    expect(html).toContain('<span data-island="Island" style="display:contents"><!--$--><button type="button">Pressed <!-- -->3<!-- --> times</button><!--/$--></span>');
    expect(html).not.toContain('<template');
  });

  it('marks the wrapper inert when the markup has nothing to say it is not ready', async () => {
    const Deferred = deferredIsland(async () => Island, 'Island', { inertUntilLoaded: true });
    const html = await serverHtml(<Deferred count={1} />);
    expect(html).toMatch(/^<div data-island="Island" style="display:contents" inert="">/);
  });
});
