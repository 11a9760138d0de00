/**
 * A domain error that carries its own HTTP status and a stable code from its area's table
 * (GitHub installer, skill catalog…). The edge wrapper and the job worker recognise every
 * subclass through one brand, so a new area adds its table, not another branch in the wrapper.
 */
const BRAND = Symbol.for('skilldock.CodedError');

export interface CodedErrorOptions {
  /** Structured, JSON-safe details (expected vs found, candidate lists, …). */
  details?: Record<string, unknown>;
  /** Short, user-facing suggestion the UI can show. */
  hint?: string;
  /** Override the table status. */
  status?: number;
  cause?: unknown;
}

export class CodedError<Code extends string = string> extends Error {
  readonly [BRAND] = true;
  readonly code: Code;
  readonly status: number;
  readonly details?: Record<string, unknown>;
  hint?: string;

  constructor(code: Code, status: number, message: string, options: CodedErrorOptions = {}) {
    super(message, options.cause !== undefined ? { cause: options.cause } : undefined);
    this.code = code;
    this.status = options.status ?? status;
    if (options.details !== undefined) this.details = options.details;
    if (options.hint !== undefined) this.hint = options.hint;
  }

  toJSON(): { code: Code; message: string; status: number; details?: Record<string, unknown>; hint?: string } {
    return {
      code: this.code,
      message: this.message,
      status: this.status,
      ...(this.details !== undefined ? { details: this.details } : {}),
      ...(this.hint !== undefined ? { hint: this.hint } : {}),
    };
  }
}

/** Works across bundles (Next bundles lib/ separately from server.ts), unlike `instanceof`. */
export function isCodedError(e: unknown): e is CodedError {
  return typeof e === 'object' && e !== null && (e as Record<symbol, unknown>)[BRAND] === true;
}
