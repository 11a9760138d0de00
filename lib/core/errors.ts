/** Typed errors of the domain. The edge wrapper maps `code` to an HTTP status; nothing else inspects messages. */
export const ERROR_STATUS = {
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  VALIDATION: 400,
  INVALID_JSON: 400,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  CONFLICT: 409,
  INVALID_STATE: 409,
  RATE_LIMITED: 429,
  SETUP_DONE: 409,
  UNAVAILABLE: 503,
  INTERNAL: 500,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export interface FieldIssue {
  path: string;
  message: string;
}

const BRAND = Symbol.for('skilldock.AppError');

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly issues?: FieldIssue[];
  readonly details?: Record<string, unknown>;
  readonly [BRAND] = true;

  constructor(code: ErrorCode, message: string, opts: { issues?: FieldIssue[]; details?: Record<string, unknown>; cause?: unknown } = {}) {
    super(message, { cause: opts.cause });
    this.name = 'AppError';
    this.code = code;
    this.status = ERROR_STATUS[code];
    this.issues = opts.issues;
    this.details = opts.details;
  }

  toJSON() {
    return {
      error: {
        code: this.code,
        message: this.message,
        ...(this.issues ? { issues: this.issues } : {}),
        ...(this.details ? { details: this.details } : {}),
      },
    };
  }
}

/** Works across bundles: Next bundles lib/ separately from server.ts, so `instanceof` is not reliable. */
export function isAppError(e: unknown): e is AppError {
  return typeof e === 'object' && e !== null && (e as Record<symbol, unknown>)[BRAND] === true;
}

export const notFound = (what: string) => new AppError('NOT_FOUND', `${what} was not found.`);
