'use client';

import { useRouter, useSearchParams } from 'next/navigation';
import { useState, type FormEvent } from 'react';

import { SearchIcon } from '@/components/icons';
import { searchHref } from '@/lib/site';

/**
 * Submits to /search?q=<trimmed, encoded text>; blank input does nothing.
 * Without JavaScript the form still works as a plain GET to /search.
 */
export function SearchBox({ id, onSearch }: { id: string; onSearch?: () => void }) {
  const router = useRouter();
  const current = useSearchParams().get('q') ?? '';
  const [query, setQuery] = useState(current);

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const href = searchHref(query);
    if (!href) return;
    router.push(href);
    onSearch?.();
  }

  return (
    <form role="search" action="/search" method="get" className="nav-search" onSubmit={submit}>
      <label htmlFor={id} className="visually-hidden">
        Search videos
      </label>
      <input
        id={id}
        name="q"
        type="search"
        placeholder="Search videos"
        autoComplete="off"
        enterKeyHint="search"
        maxLength={200}
        value={query}
        onChange={(event) => setQuery(event.target.value)}
      />
      <button type="submit" aria-label="Search">
        <SearchIcon />
      </button>
    </form>
  );
}
