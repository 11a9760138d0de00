/** Typed errors of the skill catalog; each code has one HTTP status. Pure domain code. */
import { CodedError, isCodedError, type CodedErrorOptions } from '../core/coded-error';

export const SKILL_ERROR_STATUS = {
  invalid_input: 400,
  invalid_slug: 400,
  not_found: 404,
  not_allowed: 403,
  conflict: 409,
  exists: 409,
  already_running: 409,
  scan_blocked: 422,
  invalid_skill: 422,
  missing_skill_md: 422,
  unsupported_format: 422,
  unsafe_archive: 422,
  archive_too_large: 413,
  encrypted_archive: 422,
  nested_archive: 422,
  hash_mismatch: 422,
  ssrf_blocked: 403,
  host_not_allowed: 403,
  ambiguous_slug: 409,
  registry_error: 502,
  registry_blocked: 403,
  rate_limited: 429,
  fetch_failed: 502,
  git_failed: 502,
  upload_expired: 410,
  disk_full: 507,
  internal: 500,
} as const;

export type SkillErrorCode = keyof typeof SKILL_ERROR_STATUS;

export class SkillError extends CodedError<SkillErrorCode> {
  constructor(code: SkillErrorCode, message: string, options: CodedErrorOptions = {}) {
    super(code, SKILL_ERROR_STATUS[code], message, options);
    this.name = 'SkillError';
  }
}

export function isSkillError(e: unknown): e is SkillError {
  return isCodedError(e) && (e as Error).name === 'SkillError';
}
