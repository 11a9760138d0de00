// The E2B control plane and envd answer `{code, message}` (envd's Connect errors carry a string
// code). Each answer and each transport failure becomes one typed AppError a person can act on.
import { AppError, isAppError } from '@/lib/core/errors';
import { stripTags } from '@/lib/core/text';

export interface UpstreamError {
  status: number;
  code?: string | number;
  message?: string;
  errorCode?: string;
}

const CAPACITY = /capacity|concurren|too many|rate limit|limit reached/i;

/** Reads `{code, message, error_code?}` from an error body; HTML and other text keep their first line. */
export function parseUpstreamError(status: number, text: string): UpstreamError {
  try {
    const j = JSON.parse(text) as { code?: unknown; message?: unknown; error_code?: unknown; error?: { code?: unknown; message?: unknown } };
    const src = j.error && typeof j.error === 'object' ? j.error : j;
    return {
      status,
      code: typeof src.code === 'string' || typeof src.code === 'number' ? src.code : undefined,
      message: typeof src.message === 'string' ? src.message.slice(0, 500) : undefined,
      errorCode: typeof j.error_code === 'string' ? j.error_code : undefined,
    };
  } catch {
    const first = stripTags(text).trim().split('\n')[0]?.slice(0, 200);
    return { status, message: first || undefined };
  }
}

/** One AppError per upstream answer; `what` names the object (e.g. `Sandbox abc`). */
export function upstreamError(what: string, e: UpstreamError): AppError {
  const details = { status: e.status, ...(e.code !== undefined ? { upstreamCode: e.code } : {}), ...(e.message ? { upstreamMessage: e.message } : {}) };
  const said = e.message ? `: ${e.message}` : '';
  if (e.status === 401 || e.status === 403 || e.code === 'unauthenticated' || e.code === 'permission_denied') {
    return new AppError('sandbox_credentials_rejected', `The sandbox service rejected the credentials (${e.status})${said}`, {
      details,
      hint: 'Check the API key of the sandbox config (E2B keys start with e2b_); envd also needs the access token of the sandbox.',
    });
  }
  if (
    e.errorCode === 'sandbox_capacity_unavailable' ||
    e.status === 429 ||
    (e.status === 503 && CAPACITY.test(e.message ?? '')) ||
    e.code === 'resource_exhausted'
  ) {
    return new AppError('sandbox_capacity', `The sandbox service has no capacity for another sandbox (${e.status})${said}`, {
      details,
      hint: 'Remove idle sandboxes or raise the concurrency limit of the account, then retry.',
    });
  }
  if (e.status === 404 || e.code === 'not_found') {
    return new AppError('sandbox_not_found', `${what} was not found (it may have expired)${said}`, { details });
  }
  if (e.status === 408 || e.status === 504 || e.code === 'deadline_exceeded') {
    return new AppError('sandbox_timeout', `The sandbox service timed out (${e.status})${said}`, { details });
  }
  const hint = e.status === 502 ? 'A 502 from the gateway often means the sandbox has already expired.' : undefined;
  return new AppError('sandbox_error', `The sandbox service answered ${e.status}${said}`, { details, ...(hint ? { hint } : {}) });
}

// process-wide: a constant table, never written
const TLS_CODES = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'ERR_TLS_CERT_ALTNAME_INVALID',
  'ERR_SSL_WRONG_VERSION_NUMBER',
]);

function codeOf(e: unknown): string | undefined {
  let cur: unknown = e;
  for (let i = 0; i < 4 && cur && typeof cur === 'object'; i++) {
    const c = (cur as { code?: unknown }).code;
    if (typeof c === 'string' && c !== 'UND_ERR_SOCKET') return c;
    cur = (cur as { cause?: unknown }).cause;
  }
  return undefined;
}

/** Connection-level failures: refused, unresolved, TLS (named), timeouts. */
export function transportError(target: string, e: unknown, timedOut: boolean): AppError {
  if (isAppError(e)) return e;
  const code = codeOf(e);
  if (timedOut || code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT' || code === 'UND_ERR_CONNECT_TIMEOUT') {
    return new AppError('sandbox_timeout', `${target} did not answer in time`, { details: { target, ...(code ? { cause: code } : {}) }, cause: e });
  }
  if (code && (TLS_CODES.has(code) || code.startsWith('ERR_TLS') || code.startsWith('ERR_SSL') || code.includes('CERT'))) {
    return new AppError('sandbox_tls_error', `TLS to ${target} failed: ${code}`, {
      details: { target, cause: code },
      hint: 'Give the config the CA certificate (PEM) of the gateway, or enable skip-verify for a development gateway.',
      cause: e,
    });
  }
  const msg = e instanceof Error ? e.message : String(e);
  return new AppError('sandbox_unreachable', `${target} is unreachable: ${code ?? msg}`, {
    details: { target, ...(code ? { cause: code } : {}) },
    hint:
      code === 'ENOTFOUND'
        ? 'The sandbox domain needs wildcard DNS, or set a proxy URL for the data plane.'
        : 'Check the API URL, domain and proxy URL of the config.',
    cause: e,
  });
}
