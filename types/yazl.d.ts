/** yazl 3.3.1 ships no types (and @types/yazl describes 2.x): the part of its API lib/server/exports uses. */
declare module 'yazl' {
  import type { Readable } from 'node:stream';

  export interface EntryOptions {
    mtime?: Date;
    mode?: number;
    compress?: boolean;
    compressionLevel?: number;
    forceZip64Format?: boolean;
    size?: number;
  }

  export class ZipFile {
    readonly outputStream: Readable;
    addBuffer(buffer: Buffer, metadataPath: string, options?: EntryOptions): void;
    addReadStreamLazy(
      metadataPath: string,
      options: EntryOptions,
      getReadStream: (callback: (error: Error | null, stream?: Readable) => void) => void,
    ): void;
    end(options?: { forceZip64Format?: boolean }, calculatedTotalSizeCallback?: (size: number) => void): void;
    on(event: 'error', listener: (error: Error) => void): this;
  }
}
