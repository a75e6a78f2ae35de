/** Previous / page N / next links for server-rendered lists (crawlable, work without JavaScript). */
export function Pager({
  page,
  hasMore,
  href,
  labels = ['← Previous', 'Next →'],
}: {
  page: number;
  hasMore: boolean;
  href: (page: number) => string;
  labels?: [string, string];
}) {
  if (page <= 1 && !hasMore) return null;
  return (
    <nav className="pager" aria-label="Pages">
      {page > 1 && (
        <a className="btn btn-ghost" href={href(page - 1)} rel="prev">
          {labels[0]}
        </a>
      )}
      <span className="pager-current">Page {page}</span>
      {hasMore && (
        <a className="btn btn-ghost" href={href(page + 1)} rel="next">
          {labels[1]}
        </a>
      )}
    </nav>
  );
}
