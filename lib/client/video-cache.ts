/**
 * The spec's video-list cache in local storage: key = fixed prefix plus the
 * caller's key, value = { timestamp (ms), videos }. Valid 5 minutes; a stale
 * entry is removed when read and treated as missing. Read or write errors
 * (storage disabled, quota, corrupt JSON) are logged and treated as a miss.
 */
import type { VideoDto } from '@/lib/api-types';
import { STORAGE_KEYS } from '@/lib/storage-keys';

export const VIDEO_CACHE_TTL_MS = 300_000;

export interface VideoCacheEntry {
  timestamp: number;
  videos: VideoDto[];
}

type Storage = Pick<globalThis.Storage, 'getItem' | 'setItem' | 'removeItem'>;

const storageOf = (): Storage => window.localStorage;

export function readVideoCache(
  key: string,
  now: number = Date.now(),
  storage: () => Storage = storageOf,
): VideoCacheEntry | null {
  const name = STORAGE_KEYS.videoCachePrefix + key;
  try {
    const raw = storage().getItem(name);
    if (raw === null) return null;
    const entry = JSON.parse(raw) as Partial<VideoCacheEntry>;
    if (typeof entry.timestamp !== 'number' || !Array.isArray(entry.videos)) throw new Error('unexpected shape');
    if (now - entry.timestamp > VIDEO_CACHE_TTL_MS) {
      storage().removeItem(name);
      return null;
    }
    return { timestamp: entry.timestamp, videos: entry.videos };
  } catch (error) {
    console.error(`[video-cache] could not read ${name}:`, error);
    return null;
  }
}

export function writeVideoCache(
  key: string,
  videos: VideoDto[],
  now: number = Date.now(),
  storage: () => Storage = storageOf,
): void {
  const name = STORAGE_KEYS.videoCachePrefix + key;
  try {
    storage().setItem(name, JSON.stringify({ timestamp: now, videos } satisfies VideoCacheEntry));
  } catch (error) {
    console.error(`[video-cache] could not write ${name}:`, error);
  }
}

/** The spec's check on list answers: anything without a videos array is 'not in the expected format'. */
export function isVideoList(value: unknown): value is { videos: VideoDto[] } {
  if (typeof value !== 'object' || value === null || !Array.isArray((value as { videos?: unknown }).videos)) return false;
  return (value as { videos: unknown[] }).videos.every(
    (video) =>
      typeof video === 'object' &&
      video !== null &&
      typeof (video as VideoDto).streamVideoId === 'string' &&
      typeof (video as VideoDto).title === 'string',
  );
}

export const VIDEO_ERRORS = {
  loading: 'Error loading videos. Please try again later.',
  format: 'Error: Video data is not in the expected format.',
} as const;
