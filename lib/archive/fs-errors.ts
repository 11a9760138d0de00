import { AppError } from '@/lib/core/errors';

/**
 * An extraction failure as a typed error. AppErrors and aborts pass through; OS errors get a code
 * by errno; anything else (a parser's own error) means the archive is corrupt.
 */
export function toArchiveError(e: unknown): unknown {
  if (e instanceof AppError) return e;
  if (e instanceof Error && e.name === 'AbortError') return e;
  const err = e as NodeJS.ErrnoException;
  switch (err?.code) {
    case 'ENOSPC':
    case 'EDQUOT':
      return new AppError('disk_full', 'The disk is full: the archive could not be extracted.', { cause: e });
    case 'EACCES':
    case 'EPERM':
    case 'EROFS':
      return new AppError('permission', `The extraction directory is not writable: ${err.message}`, { cause: e });
    case 'ENAMETOOLONG':
    case 'EEXIST':
    case 'ELOOP':
    case 'ENOTDIR':
    case 'EISDIR':
      return new AppError('unsafe_archive', `An archive entry could not be written safely: ${err.message}`, { cause: e });
    default:
      return new AppError('unsafe_archive', `The archive is corrupt: ${err?.message ?? String(e)}`, { cause: e });
  }
}
