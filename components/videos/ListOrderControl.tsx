import { DURATION_FILTERS, DURATION_LABELS, SORT_LABELS, type DurationFilter, type SearchSort } from '@/lib/validation/videos';

interface ListOrderControlProps<S extends SearchSort> {
  /** The orders offered, the default first. */
  sorts: readonly S[];
  current: { sort: S; duration?: DurationFilter };
  /** The URL of page 1 in an order (defaults left out of the query string). */
  href: (order: { sort: S; duration?: DurationFilter }) => string;
}

/**
 * Sort and duration filter as plain links (server-rendered: works without
 * JavaScript, every choice has its own URL, a change starts again at page 1).
 * The chosen ones carry aria-current; sorted variants are noindex with the
 * plain list as canonical, so the links are nofollow.
 */
export function ListOrderControl<S extends SearchSort>({ sorts, current, href }: ListOrderControlProps<S>) {
  const durations: (DurationFilter | undefined)[] = [undefined, ...DURATION_FILTERS];
  return (
    <nav className="list-order" aria-label="Sort and filter">
      <div className="list-order-row">
        <span className="list-order-label" id="list-order-sort">
          Sort
        </span>
        <ul className="list-order-choices" aria-labelledby="list-order-sort">
          {sorts.map((sort) => (
            <li key={sort}>
              <a
                className="chip chip-small"
                href={href({ sort, duration: current.duration })}
                rel="nofollow"
                aria-current={sort === current.sort ? 'page' : undefined}
              >
                {SORT_LABELS[sort]}
              </a>
            </li>
          ))}
        </ul>
      </div>
      <div className="list-order-row">
        <span className="list-order-label" id="list-order-length">
          Length
        </span>
        <ul className="list-order-choices" aria-labelledby="list-order-length">
          {durations.map((duration) => (
            <li key={duration ?? 'any'}>
              <a
                className="chip chip-small"
                href={href({ sort: current.sort, duration })}
                rel="nofollow"
                aria-current={duration === current.duration ? 'page' : undefined}
              >
                {duration ? DURATION_LABELS[duration] : 'Any length'}
              </a>
            </li>
          ))}
        </ul>
      </div>
    </nav>
  );
}
