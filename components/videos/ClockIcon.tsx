/** The outline icons of the member's clocks: decorative, the control carries the label. */
const clockSvg = (size: number) =>
  ({
    width: size,
    height: size,
    viewBox: '0 0 24 24',
    fill: 'none',
    stroke: 'currentColor',
    strokeWidth: 2,
    strokeLinecap: 'round',
    strokeLinejoin: 'round',
    'aria-hidden': true,
    focusable: false,
  }) as const;

/** A clock (a tick in it once saved): Watch later. */
export function ClockIcon({ size = 18, filled = false }: { size?: number; filled?: boolean }) {
  return (
    <svg {...clockSvg(size)}>
      <circle cx="12" cy="12" r="9" fill={filled ? 'currentColor' : 'none'} fillOpacity={filled ? 0.25 : undefined} />
      {filled ? <path d="m8.5 12.5 2.5 2.5 4.5-5" /> : <path d="M12 7v5l3 2" />}
    </svg>
  );
}

/** A clock with an arrow turning back: History. */
export function HistoryIcon({ size = 18 }: { size?: number }) {
  return (
    <svg {...clockSvg(size)}>
      <path d="M3 12a9 9 0 1 0 2.64-6.36L3 8" />
      <path d="M3 3v5h5" />
      <path d="M12 7v5l3 2" />
    </svg>
  );
}
