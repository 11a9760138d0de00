// The frames of OpenClaw's gateway WebSocket protocol (version 4) and how its refusals become
// AppErrors. Pure: no sockets here, so the shapes and the error mapping are unit-tested.
//
// Wire: text frames, one JSON object each. The gateway speaks first with the event
// `connect.challenge {nonce, ts}`; the client's first frame must be the request `connect`; the
// answer is `hello-ok`. Then requests `{type:"req", id, method, params}` get responses
// `{type:"res", id, ok, payload | error}`, possibly out of order, between events
// `{type:"event", event, payload}`. Errors are `{code, message, details?, retryable?, retryAfterMs?}`.
import { createHash, createPrivateKey, createPublicKey, sign } from 'node:crypto';
import { AppError } from '../../core/errors';

export const PROTOCOL_VERSION = 4;
/** The reference client's identity (an allowed `client.id`/`client.mode` pair). */
export const CLIENT_ID = 'gateway-client';
export const CLIENT_MODE = 'backend';
export const CLIENT_PLATFORM = 'linux';
/** config.* needs operator.admin; skills.status operator.read. */
export const OPERATOR_SCOPES = ['operator.read', 'operator.write', 'operator.admin'] as const;

export interface RpcErrorShape {
  code: string;
  message: string;
  details?: Record<string, unknown>;
  retryable?: boolean;
  retryAfterMs?: number;
}

export type InboundFrame =
  | { type: 'res'; id: string; ok: boolean; payload?: unknown; error?: RpcErrorShape }
  | { type: 'event'; event: string; payload?: unknown };

export interface HelloOk {
  type: 'hello-ok';
  protocol: number;
  server: { version: string; connId?: string };
  auth: { role?: string; scopes?: string[]; deviceToken?: string };
  policy: { maxPayload?: number; maxBufferedBytes?: number; tickIntervalMs?: number };
  features?: { methods?: string[] };
  snapshot?: Record<string, unknown>;
}

/** An Ed25519 key the gateway pairs once (approved on the gateway host) and knows the client by. */
export interface DeviceIdentity {
  privateKeyPem: string;
}

const b64url = (b: Buffer) => b.toString('base64url');

/** The raw 32-byte public key (the last bytes of its SPKI DER form). */
function rawPublicKey(privateKeyPem: string): Buffer {
  const der = createPublicKey(createPrivateKey(privateKeyPem)).export({ type: 'spki', format: 'der' });
  return der.subarray(der.length - 32);
}

/** The device id the gateway derives: sha256 of the raw public key, hex. */
export function deviceIdOf(device: DeviceIdentity): string {
  return createHash('sha256').update(rawPublicKey(device.privateKeyPem)).digest('hex');
}

/** Parses one inbound text frame; null for anything that is not a response or an event. */
export function parseFrame(text: string): InboundFrame | null {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof v !== 'object' || v === null) return null;
  const f = v as Record<string, unknown>;
  if (f.type === 'res' && typeof f.id === 'string' && typeof f.ok === 'boolean') return f as InboundFrame;
  if (f.type === 'event' && typeof f.event === 'string') return f as InboundFrame;
  return null;
}

/** The `connect` request's params; with a device, its signature over the challenge (payload v3). */
export function connectParams(opts: { token: string; nonce: string; ts: number; clientVersion: string; device?: DeviceIdentity }) {
  const scopes = [...OPERATOR_SCOPES];
  const params: Record<string, unknown> = {
    minProtocol: PROTOCOL_VERSION,
    maxProtocol: PROTOCOL_VERSION,
    client: { id: CLIENT_ID, version: opts.clientVersion, platform: CLIENT_PLATFORM, mode: CLIENT_MODE },
    role: 'operator',
    scopes,
    caps: [],
    auth: { token: opts.token },
    userAgent: `skilldock/${opts.clientVersion}`,
  };
  if (opts.device) {
    const id = deviceIdOf(opts.device);
    const payload = ['v3', id, CLIENT_ID, CLIENT_MODE, 'operator', scopes.join(','), String(opts.ts), opts.token, opts.nonce, CLIENT_PLATFORM, ''].join('|');
    const signature = sign(null, Buffer.from(payload, 'utf8'), createPrivateKey(opts.device.privateKeyPem));
    params.device = { id, publicKey: b64url(rawPublicKey(opts.device.privateKeyPem)), signature: b64url(signature), signedAt: opts.ts, nonce: opts.nonce };
  }
  return params;
}

const detail = (e: RpcErrorShape, key: string): unknown => e.details?.[key];
const str = (v: unknown) => (typeof v === 'string' ? v : undefined);

/** A `config.patch`/`config.apply` refused because the config moved since `baseHash` was read. */
export function isStaleHash(e: RpcErrorShape): boolean {
  return e.code === 'INVALID_REQUEST' && /config changed since last load/i.test(e.message);
}

export function retryAfterMs(e: RpcErrorShape): number | undefined {
  const v = e.retryAfterMs ?? detail(e, 'retryAfterMs');
  return typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : undefined;
}

export function isRateLimited(e: RpcErrorShape): boolean {
  return e.code === 'UNAVAILABLE' && (typeof detail(e, 'limit') === 'string' || /rate limit/i.test(e.message));
}

/** The gateway is still starting (connect) or draining: worth another try within the budget. */
export function isTransient(e: RpcErrorShape): boolean {
  return e.code === 'UNAVAILABLE' && !isRateLimited(e) && (e.retryable === true || retryAfterMs(e) !== undefined);
}

/** Maps a gateway refusal of `method` to an AppError a person can act on. */
export function rpcError(url: string, method: string, e: RpcErrorShape): AppError {
  const detailCode = str(detail(e, 'code'));
  const said = e.message.slice(0, 500);
  const base = { gatewayCode: e.code, ...(detailCode ? { detailCode } : {}), method, url };
  if (isRateLimited(e)) {
    const after = retryAfterMs(e);
    const secs = after === undefined ? null : Math.max(1, Math.ceil(after / 1000));
    return new AppError('rate_limited', `The gateway at ${url} allows only a few ${method} calls a minute (${str(detail(e, 'limit')) ?? 'limit reached'}).`, {
      details: { ...base, reason: 'rate_limited', ...(after !== undefined ? { retryAfterMs: after } : {}) },
      hint: secs ? `Try again in ${secs} s.` : 'Try again in a minute.',
    });
  }
  if (detailCode === 'PAIRING_REQUIRED' || e.code === 'NOT_PAIRED') {
    const requestId = str(detail(e, 'requestId'));
    return new AppError('upstream_error', `The gateway at ${url} has not approved Skilldock's device yet.`, {
      details: { ...base, reason: 'pairing_required', ...(requestId ? { requestId } : {}), deviceId: str(detail(e, 'deviceId')) ?? null },
      hint: requestId
        ? `On the gateway's host run \`openclaw devices approve ${requestId}\`, then try again.`
        : "On the gateway's host approve the pending device with `openclaw devices list` and `openclaw devices approve`, then try again.",
    });
  }
  if (detailCode?.startsWith('AUTH_') || /^unauthorized/i.test(e.message)) {
    return new AppError('upstream_error', `The gateway at ${url} refused the token: ${said}`, {
      details: { ...base, reason: 'auth_refused' },
      hint: "Enter the gateway's token (gateway.auth.token on the gateway host).",
    });
  }
  if (detailCode === 'MISSING_SCOPE' || e.code === 'FORBIDDEN') {
    return new AppError('upstream_error', `The gateway at ${url} does not let this connection call ${method}: ${said}`, {
      details: { ...base, reason: 'missing_scope', missingScope: str(detail(e, 'missingScope')) ?? null },
      hint: 'A gateway on another machine grants operator scopes only to a paired device: give Skilldock a device identity and approve it on the gateway host.',
    });
  }
  if (e.code === 'UNAVAILABLE') {
    const after = retryAfterMs(e);
    return new AppError('unavailable', `The gateway at ${url} cannot serve ${method} right now: ${said}`, {
      details: { ...base, reason: 'gateway_busy', ...(after !== undefined ? { retryAfterMs: after } : {}) },
    });
  }
  return new AppError('upstream_error', `The gateway at ${url} refused ${method}: ${said}`, { details: { ...base, reason: 'refused' } });
}
