/** Previous / next links for a server-rendered admin list; other query parameters are kept. */
export function Pagination({
  path,
  params,
  page,
  hasMore,
}: {
  path: string;
  params: Record<string, string | undefined>;
  page: number;
  hasMore: boolean;
}) {
  if (page <= 1 && !hasMore) return null;
  const href = (to: number) => {
    const query = new URLSearchParams(
      Object.entries({ ...params, page: String(to) }).filter((entry): entry is [string, string] => Boolean(entry[1])),
    );
    return `${path}?${query}`;
  };
  return (
    <nav className="admin-more" aria-label="Pages">
      {page > 1 && (
        <a className="btn btn-ghost" href={href(page - 1)} rel="prev">
          Previous
        </a>
      )}
      <span className="admin-muted" aria-current="page">
        Page {page}
      </span>
      {hasMore && (
        <a className="btn btn-ghost" href={href(page + 1)} rel="next">
          Next
        </a>
      )}
    </nav>
  );
}
