/**
 * @jest-environment jsdom
 */
// jsdom: React hydrating a server's HTML in a document, and drawing in the browser.
import { readFileSync } from 'node:fs';

import { act } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';

import { useRenderedOverServerMarkup } from '@/components/shell/deferred-island';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

/** What each probe answered, by name, on every render: the answer must not change over a component's life. */
let answers: Record<string, boolean[]> = {};

function Probe({ name }: { name: string }) {
  const answer = useRenderedOverServerMarkup();
  (answers[name] ??= []).push(answer);
  return <i>{name}</i>;
}

/** A page whose probes render on the server; `later` adds one once the page is in the browser. */
function Page({ text = 'server', later = false }: { text?: string; later?: boolean }) {
  return (
    <main>
      <p>{text}</p>
      <Probe name="first" />
      <section>
        {[1, 2, 3].map((n) => (
          <Probe key={n} name={`item${n}`} />
        ))}
      </section>
      {later && <Probe name="later" />}
    </main>
  );
}

function serverMarkup() {
  const container = document.createElement('div');
  container.innerHTML = renderToString(<Page />);
  document.body.append(container);
  answers = {};
  return container;
}

afterEach(() => {
  document.body.innerHTML = '';
  answers = {};
});

describe('useRenderedOverServerMarkup', () => {
  it.each(['', 'Comments3-', 'R_'])('is true while hydrating (identifierPrefix %j), false for what mounts afterwards, and never changes', async (identifierPrefix) => {
    const container = serverMarkup();
    const root = hydrateRoot(container, <Page />, { identifierPrefix });
    await act(async () => {});
    expect(answers).toEqual({ first: [true], item1: [true], item2: [true], item3: [true] });
    await act(async () => root.render(<Page later />));
    expect(answers).toEqual({ first: [true, true], item1: [true, true], item2: [true, true], item3: [true, true], later: [false] });
  });

  it('is false in a root React draws in the browser (a 404 page)', async () => {
    const container = document.createElement('div');
    document.body.append(container);
    await act(async () => createRoot(container).render(<Page />));
    expect(answers).toEqual({ first: [false], item1: [false], item2: [false], item3: [false] });
  });

  it('is false when React draws the page again after a hydration error', async () => {
    const container = serverMarkup();
    const recovered = jest.fn();
    await act(async () => void hydrateRoot(container, <Page text="browser" />, { onRecoverableError: recovered }));
    expect(recovered).toHaveBeenCalled();
    // Whatever the first, abandoned, hydration attempt answered, the render that was committed drew in the browser.
    expect(answers.first?.at(-1)).toBe(false);
    expect(container.textContent).toContain('browser');
  });

  it('reads the spelling of the React DOM the app runs on (Next bundles its own)', () => {
    const client = readFileSync(require.resolve('next/dist/compiled/react-dom/cjs/react-dom-client.production.js'), 'utf8');
    // React DOM's mountId: `"_" + identifierPrefix + "R_" + treeId` while hydrating, `"r_" + counter` in the browser.
    expect(client).toMatch(/"_" \+ identifierPrefix \+ "R_" \+/);
    expect(client).toMatch(/"r_" \+\s*JSCompiler_inline_result\.toString\(32\) \+\s*"_"/);
  });
});
