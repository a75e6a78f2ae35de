import 'server-only';

import type { Readable } from 'node:stream';

import { getConfig } from '@/lib/config/server';
import type { PreviewFile } from '@/lib/media/previews';
import type { ThumbnailWidth } from '@/lib/media/thumbnails';

import { LocalMediaStorage } from './local';
import { S3MediaStorage } from './s3';

/** A byte range, both ends inclusive, as in an HTTP Range header. */
export interface ByteRange {
  start: number;
  end: number;
}

export interface StoredObject {
  size: number;
  modified: Date;
}

/**
 * Where media lives: originals, web MP4s, HLS renditions and thumbnails,
 * under keys such as `originals/{id}.mp4` or `videos/{id}/hls/720p/index.m3u8`.
 * The media pipeline writes finished files from a local work folder with
 * putFile; the media routes read them back, in byte ranges for video.
 * The default is a folder under DATA_DIR; S3-compatible storage plugs in
 * behind the same interface.
 */
export interface MediaStorage {
  readonly kind: 'local' | 's3';
  /** Stores a finished local file under key. The local file may be moved, so callers must not use it afterwards. */
  putFile(key: string, localPath: string, contentType: string): Promise<void>;
  /** A local path to read key from (ffmpeg input); release() removes any temporary copy. */
  openLocal(key: string): Promise<{ path: string; release: () => Promise<void> }>;
  stat(key: string): Promise<StoredObject | null>;
  read(key: string, range?: ByteRange): Promise<Readable>;
  /** Removes key and everything under `key/`. */
  deletePrefix(prefix: string): Promise<void>;
  /**
   * A URL anyone may GET key from for `seconds` (MEDIA_OFFLOAD=redirect; S3 only), whose answer
   * carries `cacheControl`. Only for callers that have checked access already.
   */
  presignedGetUrl?(key: string, seconds: number, cacheControl: string): Promise<string>;
}

let storage: MediaStorage | null = null;

/** The bucket when MEDIA_S3_BUCKET is set, else DATA_DIR/media. */
export function getMediaStorage(): MediaStorage {
  if (!storage) {
    const { mediaS3, dataDir } = getConfig();
    storage = mediaS3 ? new S3MediaStorage(mediaS3, dataDir) : new LocalMediaStorage(dataDir);
  }
  return storage;
}

/** For tests that point storage elsewhere. */
export function setMediaStorage(next: MediaStorage | null): void {
  storage = next;
}

/** A WebP width of the thumbnail, beside thumbnail.jpg (lib/server/media/thumbnail-variants.ts); its URL carries the version instead. */
export const thumbnailVariantName = (width: ThumbnailWidth) => `thumbnail-${width}.webp`;

export const mediaKeys = {
  original: (sourceKey: string) => `originals/${sourceKey}`,
  videoPrefix: (videoId: string) => `videos/${videoId}`,
  webMp4: (videoId: string) => `videos/${videoId}/web.mp4`,
  thumbnail: (videoId: string) => `videos/${videoId}/thumbnail.jpg`,
  thumbnailVariant: (videoId: string, width: ThumbnailWidth) => `videos/${videoId}/${thumbnailVariantName(width)}`,
  hls: (videoId: string, file: string) => `videos/${videoId}/hls/${file}`,
  preview: (videoId: string, file: PreviewFile) => `videos/${videoId}/${file}`,
};

/** Content types for the files the pipeline writes, by extension. */
export function contentTypeFor(key: string): string {
  const extension = key.slice(key.lastIndexOf('.') + 1).toLowerCase();
  return (
    {
      mp4: 'video/mp4',
      m4s: 'video/iso.segment',
      ts: 'video/mp2t',
      m3u8: 'application/vnd.apple.mpegurl',
      jpg: 'image/jpeg',
      jpeg: 'image/jpeg',
      webp: 'image/webp',
      png: 'image/png',
      vtt: 'text/vtt; charset=utf-8',
    }[extension] ?? 'application/octet-stream'
  );
}
