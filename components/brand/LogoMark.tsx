import { useId } from 'react';

/*
 * The Chrysalis mark: a butterfly whose body is a play button.
 * Drawn on a transparent 408×408 box (favicon proportions: wide gaps so it stays
 * legible at 16–32 px); the dark rounded tile lives only in the static assets.
 */
const WINGS =
  'M222 209.5C234 143.5 294 53.5 362 55.5C400 56.5 410 93.5 400 125.5C388 165.5 354 191.5 222 209.5Z' +
  'M222 235.5C274 235.5 344 251.5 346 297.5C348 337.5 316 361.5 290 349.5C260 335.5 234 291.5 222 235.5Z' +
  'M186 209.5C174 143.5 114 53.5 46 55.5C8 56.5 -2 93.5 8 125.5C20 165.5 54 191.5 186 209.5Z' +
  'M186 235.5C134 235.5 64 251.5 62 297.5C60 337.5 92 361.5 118 349.5C148 335.5 174 291.5 186 235.5Z';

const PLAY =
  'M169.3 177.9A11.2 11.2 0 0 1 186.5 168.5L242.4 204.1A11.2 11.2 0 0 1 242.4 222.9' +
  'L186.5 258.5A11.2 11.2 0 0 1 169.3 249.1Z';

export function LogoMark({ size = 32, title }: { size?: number; title?: string }) {
  // useId() output (":r0:", "«r0»" or "_r_0_" depending on the React version) is not
  // safe inside url(#…), so keep only characters valid in an unescaped id.
  const uid = useId().replace(/[^A-Za-z0-9_-]/g, '');
  const gradientId = `chrysalis-wing-${uid}`;
  const maskId = `chrysalis-cut-${uid}`;
  const titleId = `chrysalis-title-${uid}`;

  const a11y = title
    ? { role: 'img' as const, 'aria-labelledby': titleId }
    : { 'aria-hidden': true as const, focusable: 'false' as const };

  return (
    <svg xmlns="http://www.w3.org/2000/svg" width={size} height={size} viewBox="0 0 408 408" {...a11y}>
      {title ? <title id={titleId}>{title}</title> : null}
      <defs>
        <linearGradient id={gradientId} x1="34" y1="53.5" x2="374" y2="353.5" gradientUnits="userSpaceOnUse">
          <stop offset="0" stopColor="#ff4fa3" />
          <stop offset="1" stopColor="#8b5cf6" />
        </linearGradient>
        <mask id={maskId} maskUnits="userSpaceOnUse" x="0" y="0" width="408" height="408">
          <rect width="408" height="408" fill="#fff" />
          <path d={PLAY} stroke="#000" strokeWidth="40" strokeLinejoin="round" />
        </mask>
      </defs>
      <path d={WINGS} fill={`url(#${gradientId})`} mask={`url(#${maskId})`} />
      <path d={PLAY} fill="#f4f2f8" />
    </svg>
  );
}
