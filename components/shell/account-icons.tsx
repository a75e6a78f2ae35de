import { base, type IconProps } from '@/components/icons';

// Apart from icons.tsx, which every chunk that imports one icon carries whole: these appear only in the member's part
// of the header (loaded for members, after the first load) and on a playlist's page, so the gear's long path stays out
// of every page's first load (bench:first-load-js: +239 B on home when it sat in icons.tsx).

/** Lines with a play mark: a member's playlists. */
export const PlaylistsIcon = ({ size = 18 }: IconProps) => (
  <svg {...base(size)}>
    <path d="M3 6h13M3 12h9M3 18h7" />
    <path d="m15 13 6 3.5-6 3.5z" />
  </svg>
);

/** A gear: settings. */
export const SettingsIcon = ({ size = 18 }: IconProps) => (
  <svg {...base(size)}>
    <circle cx="12" cy="12" r="3" />
    <path d="M19.4 15a1.7 1.7 0 0 0 .3 1.8l.1.1a2 2 0 1 1-2.8 2.8l-.1-.1a1.7 1.7 0 0 0-1.8-.3 1.7 1.7 0 0 0-1 1.5V21a2 2 0 1 1-4 0v-.1a1.7 1.7 0 0 0-1.1-1.5 1.7 1.7 0 0 0-1.8.3l-.1.1a2 2 0 1 1-2.8-2.8l.1-.1a1.7 1.7 0 0 0 .3-1.8 1.7 1.7 0 0 0-1.5-1H3a2 2 0 1 1 0-4h.1a1.7 1.7 0 0 0 1.5-1.1 1.7 1.7 0 0 0-.3-1.8l-.1-.1a2 2 0 1 1 2.8-2.8l.1.1a1.7 1.7 0 0 0 1.8.3H9a1.7 1.7 0 0 0 1-1.5V3a2 2 0 1 1 4 0v.1a1.7 1.7 0 0 0 1 1.5 1.7 1.7 0 0 0 1.8-.3l.1-.1a2 2 0 1 1 2.8 2.8l-.1.1a1.7 1.7 0 0 0-.3 1.8V9a1.7 1.7 0 0 0 1.5 1H21a2 2 0 1 1 0 4h-.1a1.7 1.7 0 0 0-1.5 1Z" />
  </svg>
);
