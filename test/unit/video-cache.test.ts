import type { VideoDto } from '@/lib/api-types';
import { isVideoList, readVideoCache, VIDEO_CACHE_TTL_MS, writeVideoCache } from '@/lib/client/video-cache';

class MemoryStorage {
  items = new Map<string, string>();
  getItem(key: string) {
    return this.items.get(key) ?? null;
  }
  setItem(key: string, value: string) {
    this.items.set(key, value);
  }
  removeItem(key: string) {
    this.items.delete(key);
  }
}

const video = { _id: '1', streamVideoId: 'abc', title: 'One', thumbnailUrl: null, views: 3, likedBy: [] } as unknown as VideoDto;

describe('the video list cache', () => {
  let storage: MemoryStorage;
  const use = () => storage;
  beforeEach(() => {
    storage = new MemoryStorage();
    jest.spyOn(console, 'error').mockImplementation(() => {});
  });
  afterEach(() => jest.restoreAllMocks());

  it('stores { timestamp, videos } under the fixed prefix plus the key', () => {
    writeVideoCache('recent', [video], 1_000, use);
    expect(JSON.parse(storage.getItem('chrysalis.videoCache.recent')!)).toEqual({ timestamp: 1_000, videos: [video] });
    expect(readVideoCache('recent', 1_000 + VIDEO_CACHE_TTL_MS, use)).toEqual({ timestamp: 1_000, videos: [video] });
  });

  it('removes a stale entry when read and treats it as missing', () => {
    writeVideoCache('top', [video], 1_000, use);
    expect(readVideoCache('top', 1_001 + VIDEO_CACHE_TTL_MS, use)).toBeNull();
    expect(storage.getItem('chrysalis.videoCache.top')).toBeNull();
  });

  it('logs read and write errors and treats them as a miss', () => {
    storage.setItem('chrysalis.videoCache.recent', '{not json');
    expect(readVideoCache('recent', 0, use)).toBeNull();
    const broken = () => {
      throw new Error('storage disabled');
    };
    expect(readVideoCache('recent', 0, broken)).toBeNull();
    expect(() => writeVideoCache('recent', [video], 0, broken)).not.toThrow();
    expect(console.error).toHaveBeenCalledTimes(3);
  });

  it('accepts only lists of videos', () => {
    expect(isVideoList({ videos: [video] })).toBe(true);
    expect(isVideoList({ videos: [{ nope: 1 }] })).toBe(false);
    expect(isVideoList({ items: [] })).toBe(false);
    expect(isVideoList(null)).toBe(false);
  });
});
