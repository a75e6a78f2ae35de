/**
 * The player's keyboard, as on YouTube: media-chrome answers space/k (play), m (mute), f (fullscreen), c (captions),
 * p (picture-in-picture), ←/→ (SEEK_ARROW_SECONDS), ↑/↓ (volume), < and > (speed) and ? (the list of shortcuts);
 * `playerKeySeek` adds what it lacks: j/l (SEEK_JL_SECONDS) and 0–9 (to 0 %–90 % of the video).
 * No DOM here: the server's markup reads the constants, the unit tests the arithmetic.
 */

export const SEEK_ARROW_SECONDS = 5;
export const SEEK_JL_SECONDS = 10;
export const PLAYBACK_RATES = [0.25, 0.5, 0.75, 1, 1.25, 1.5, 1.75, 2] as const;

/** Where a key moves playback to, or null for a key the player leaves alone. */
export function playerKeySeek(key: string, currentTime: number, duration: number): number | null {
  const end = Number.isFinite(duration) && duration > 0 ? duration : null;
  const clamp = (time: number) => Math.max(0, end === null ? time : Math.min(end, time));
  if (key === 'j') return clamp(currentTime - SEEK_JL_SECONDS);
  if (key === 'l') return clamp(currentTime + SEEK_JL_SECONDS);
  if (/^[0-9]$/.test(key) && end !== null) return (Number(key) / 10) * end;
  return null;
}
