import { expect } from 'vitest';
import { type AppError, isAppError } from '@/lib/core/errors';

/** Runs `fn`, expects an AppError with `code`, and returns it for further checks. */
export function expectCode(fn: () => unknown, code: string): AppError {
  try {
    fn();
  } catch (e) {
    expect(isAppError(e)).toBe(true);
    expect((e as AppError).code).toBe(code);
    return e as AppError;
  }
  throw new Error('expected a throw');
}
