/** A clock (a tick in it once saved): decorative, the control carries the label. */
export function ClockIcon({ size = 18, filled = false }: { size?: number; filled?: boolean }) {
  return (
    <svg
      width={size}
      height={size}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={2}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
    >
      <circle cx="12" cy="12" r="9" fill={filled ? 'currentColor' : 'none'} fillOpacity={filled ? 0.25 : undefined} />
      {filled ? <path d="m8.5 12.5 2.5 2.5 4.5-5" /> : <path d="M12 7v5l3 2" />}
    </svg>
  );
}
