/**
 * The one error type of the domain. Every failure a person or a client can act on is an AppError
 * with a stable lower_snake code; each code has exactly one HTTP status. The edge maps it to the
 * JSON envelope `{ error: { code, message, issues?, details?, hint? } }` (or to form errors in a
 * server action), and the job worker stores the same envelope on a failed job.
 */
export const ERROR_STATUS = {
  // Requests and sessions
  unauthenticated: 401,
  forbidden: 403,
  not_allowed: 403,
  not_found: 404,
  validation: 400,
  invalid_json: 400,
  invalid_spec: 400,
  invalid_slug: 400,
  payload_too_large: 413,
  unsupported_media_type: 415,
  conflict: 409,
  invalid_state: 409,
  already_running: 409,
  exists: 409,
  setup_done: 409,
  upload_expired: 410,
  rate_limited: 429,
  unavailable: 503,
  internal: 500,
  // Upstream services (GitHub, ClawHub, git, URLs)
  release_not_found: 404,
  upstream_error: 502,
  upstream_too_large: 502,
  insecure_redirect: 502,
  download_failed: 502,
  registry_error: 502,
  fetch_failed: 502,
  git_failed: 502,
  ssrf_blocked: 403,
  host_not_allowed: 403,
  registry_blocked: 403,
  ambiguous_slug: 409,
  // Archives and content
  unsupported_format: 422,
  unsafe_archive: 422,
  file_type_not_allowed: 422,
  archive_too_large: 413,
  encrypted_archive: 422,
  nested_archive: 422,
  hash_mismatch: 422,
  invalid_skill: 422,
  missing_skill_md: 422,
  scan_blocked: 422,
  // Verified installs
  no_matching_asset: 422,
  asset_too_large: 413,
  checksum_mismatch: 422,
  checksum_missing_entry: 422,
  checksum_required: 422,
  digest_changed: 409,
  signature_invalid: 422,
  no_binary: 422,
  binary_conflict: 409,
  wrong_architecture: 422,
  libc_mismatch: 422,
  smoke_test_failed: 422,
  no_update_known: 409,
  // Remote sandboxes (E2B, CubeSandbox)
  sandbox_credentials_rejected: 502,
  sandbox_not_found: 404,
  sandbox_template_missing: 404,
  sandbox_capacity: 503,
  sandbox_timeout: 504,
  sandbox_tls_error: 502,
  sandbox_unreachable: 502,
  sandbox_unsupported: 422,
  sandbox_file_too_large: 413,
  sandbox_error: 502,
  // Sandbox configs
  config_in_use: 409,
  inventory_unverifiable: 409,
  locked: 423,
  // Network rules
  network_unenforceable: 422,
  network_apply_failed: 500,
  // The host
  disk_full: 507,
  permission: 500,
  swap_failed: 500,
} as const satisfies Record<string, 400 | 401 | 403 | 404 | 409 | 410 | 413 | 415 | 422 | 423 | 429 | 500 | 502 | 503 | 504 | 507>;

export type ErrorCode = keyof typeof ERROR_STATUS;

export interface FieldIssue {
  path: string;
  message: string;
}

/** The error part of every error response and of a failed job. */
export interface ErrorBody {
  code: ErrorCode;
  message: string;
  issues?: FieldIssue[];
  details?: Record<string, unknown>;
  hint?: string;
}

export interface AppErrorOptions {
  /** Field-level problems of a rejected input (shown under the form fields). */
  issues?: FieldIssue[];
  /** Structured, JSON-safe details (expected vs found, candidate lists, …). */
  details?: Record<string, unknown>;
  /** A short suggestion of what to do next. */
  hint?: string;
  cause?: unknown;
}

const BRAND = Symbol.for('skilldock.AppError');

export class AppError<Code extends ErrorCode = ErrorCode> extends Error {
  readonly code: Code;
  readonly status: number;
  readonly issues?: FieldIssue[];
  readonly details?: Record<string, unknown>;
  readonly hint?: string;
  readonly [BRAND] = true;

  constructor(code: Code, message: string, opts: AppErrorOptions = {}) {
    super(message, opts.cause !== undefined ? { cause: opts.cause } : undefined);
    this.name = 'AppError';
    this.code = code;
    this.status = ERROR_STATUS[code];
    if (opts.issues !== undefined) this.issues = opts.issues;
    if (opts.details !== undefined) this.details = opts.details;
    if (opts.hint !== undefined) this.hint = opts.hint;
  }

  body(): ErrorBody {
    return {
      code: this.code,
      message: this.message,
      ...(this.issues ? { issues: this.issues } : {}),
      ...(this.details ? { details: this.details } : {}),
      ...(this.hint ? { hint: this.hint } : {}),
    };
  }

  toJSON(): { error: ErrorBody } {
    return { error: this.body() };
  }
}

/** Works across bundles: Next bundles lib/ separately from server.ts, so `instanceof` is not reliable. */
export function isAppError(e: unknown): e is AppError {
  return typeof e === 'object' && e !== null && (e as Record<symbol, unknown>)[BRAND] === true;
}

/** True for an AppError with one of the given codes. */
export function hasCode<C extends ErrorCode>(e: unknown, ...codes: C[]): e is AppError<C> {
  return isAppError(e) && (codes as ErrorCode[]).includes(e.code);
}

export const notFound = (what: string) => new AppError('not_found', `${what} was not found.`);
