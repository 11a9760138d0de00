/**
 * Typed errors for the GitHub release installer (spec github-releases.md §19).
 * Pure domain code: no Next/React imports.
 */
import { CodedError, type CodedErrorOptions } from '../core/coded-error';

/** HTTP status for every failure code of the §19 failure-handling table. */
export const GITHUB_ERROR_STATUS = {
  invalid_spec: 400,
  not_allowed: 403,
  already_running: 409,
  release_not_found: 404,
  rate_limited: 429,
  upstream_error: 502,
  upstream_too_large: 502,
  insecure_redirect: 502,
  no_matching_asset: 422,
  asset_too_large: 413,
  download_failed: 502,
  disk_full: 507,
  permission: 500,
  checksum_mismatch: 422,
  checksum_missing_entry: 422,
  checksum_required: 422,
  digest_changed: 409,
  signature_invalid: 422,
  unsupported_format: 422,
  unsafe_archive: 422,
  archive_too_large: 422,
  no_binary: 422,
  binary_conflict: 409,
  wrong_architecture: 422,
  libc_mismatch: 422,
  conflict: 409,
  smoke_test_failed: 422,
  swap_failed: 500,
  no_update_known: 409,
} as const satisfies Record<string, 400 | 403 | 404 | 409 | 413 | 422 | 429 | 500 | 502 | 507>;

export type GithubErrorCode = keyof typeof GITHUB_ERROR_STATUS;

export type GithubInstallErrorOptions = CodedErrorOptions;

const BRAND = Symbol.for('skilldock.GithubInstallError');

export class GithubInstallError extends CodedError<GithubErrorCode> {
  readonly [BRAND] = true;

  constructor(code: GithubErrorCode, message: string, options: GithubInstallErrorOptions = {}) {
    super(code, GITHUB_ERROR_STATUS[code], message, options);
    this.name = 'GithubInstallError';
  }
}

/** Works across bundles (Next bundles lib/ separately from server.ts), unlike `instanceof`. */
export function isGithubInstallError(e: unknown): e is GithubInstallError {
  return typeof e === 'object' && e !== null && (e as Record<symbol, unknown>)[BRAND] === true;
}
