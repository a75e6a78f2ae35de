/**
 * Which storage errors of an upload are ours to answer with 507 or 503
 * (lib/server/videos/storage-failure.ts), and which are left to the caller.
 */
import { ApiError } from '@/lib/server/errors';
import {
  STORAGE_BROKEN_MESSAGE,
  STORAGE_BUSY_MESSAGE,
  STORAGE_FULL_MESSAGE,
  storageFailure,
} from '@/lib/server/videos/storage-failure';

import { captureLogs, LEVEL } from '../helpers/logs';

const errno = (code: string) => Object.assign(new Error(`${code}: something about a disk`), { code });

describe('storageFailure', () => {
  it.each([
    ['ENOSPC', 507, STORAGE_FULL_MESSAGE],
    ['EDQUOT', 507, STORAGE_FULL_MESSAGE],
    ['EFBIG', 507, STORAGE_FULL_MESSAGE],
    ['EIO', 507, STORAGE_BROKEN_MESSAGE],
    ['EROFS', 507, STORAGE_BROKEN_MESSAGE],
    ['EACCES', 507, STORAGE_BROKEN_MESSAGE],
    ['EMFILE', 503, STORAGE_BUSY_MESSAGE],
    ['ENFILE', 503, STORAGE_BUSY_MESSAGE],
  ])('answers %s with %i and logs it as an error with its code', (code, status, message) => {
    const logs = captureLogs();
    const answer = storageFailure(errno(code), 'storing');
    logs.restore();
    expect(answer).toBeInstanceOf(ApiError);
    expect({ status: answer!.status, message: answer!.message }).toEqual({ status, message });
    if (status === 503) expect(answer!.headers['Retry-After']).toMatch(/^\d+$/);
    expect(logs.at(LEVEL.error)).toEqual([
      expect.objectContaining({ component: 'upload', code, step: 'storing', err: expect.objectContaining({ code }) }),
    ]);
  });

  it('finds the code through wrapped causes and in plain objects from the upload receiver', () => {
    const logs = captureLogs();
    expect(storageFailure(new Error('pipeline failed', { cause: errno('ENOSPC') }), 'receiving')?.status).toBe(507);
    expect(storageFailure({ code: 'ENOSPC', message: 'no space left on device' }, 'receiving')?.status).toBe(507);
    logs.restore();
  });

  it.each([['ENOENT'], ['ENOTDIR'], ['ECONNRESET'], ['ERR_STREAM_PREMATURE_CLOSE']])(
    'leaves %s to the caller, unlogged',
    (code) => {
      const logs = captureLogs();
      expect(storageFailure(errno(code), 'receiving')).toBeUndefined();
      expect(storageFailure(new Error('no code'), 'receiving')).toBeUndefined();
      logs.restore();
      expect(logs.records).toEqual([]);
    },
  );
});
