import { createHash, createPublicKey, generateKeyPairSync, verify } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { connectParams, deviceIdOf, isStaleHash, isTransient, parseFrame, rpcError } from './rpc-frames';

const URL = 'ws://gw.example:18789';

describe('gateway RPC frames', () => {
  it('parses responses and events and drops anything else', () => {
    expect(parseFrame('{"type":"res","id":"1","ok":true,"payload":{"a":1}}')).toMatchObject({ type: 'res', id: '1', ok: true });
    expect(parseFrame('{"type":"event","event":"tick"}')).toMatchObject({ type: 'event', event: 'tick' });
    expect(parseFrame('{"type":"res","id":1,"ok":true}')).toBeNull();
    expect(parseFrame('{"type":"req","id":"1","method":"x"}')).toBeNull();
    expect(parseFrame('not json')).toBeNull();
    expect(parseFrame('null')).toBeNull();
  });

  it('signs the challenge with the device key (payload v3) the way the gateway verifies it', () => {
    const { privateKey } = generateKeyPairSync('ed25519');
    const device = { privateKeyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString() };
    const p = connectParams({ token: 'T', nonce: 'n-1', ts: 1234, clientVersion: '1.0.0', device }) as Record<string, any>;
    expect(p).toMatchObject({ minProtocol: 4, maxProtocol: 4, role: 'operator', auth: { token: 'T' }, client: { id: 'gateway-client', mode: 'backend' } });
    expect(p.scopes).toEqual(['operator.read', 'operator.write', 'operator.admin']);
    const raw = Buffer.from(p.device.publicKey, 'base64url');
    expect(raw).toHaveLength(32);
    expect(p.device.id).toBe(createHash('sha256').update(raw).digest('hex'));
    expect(p.device.id).toBe(deviceIdOf(device));
    expect(p.device).toMatchObject({ signedAt: 1234, nonce: 'n-1' });
    const payload = `v3|${p.device.id}|gateway-client|backend|operator|operator.read,operator.write,operator.admin|1234|T|n-1|linux|`;
    expect(verify(null, Buffer.from(payload), createPublicKey(privateKey), Buffer.from(p.device.signature, 'base64url'))).toBe(true);
    expect(connectParams({ token: 'T', nonce: 'n', ts: 1, clientVersion: '1' })).not.toHaveProperty('device');
  });

  it('tells a stale config hash from other refusals', () => {
    expect(isStaleHash({ code: 'INVALID_REQUEST', message: 'config changed since last load; re-run config.get and retry' })).toBe(true);
    expect(isStaleHash({ code: 'INVALID_REQUEST', message: 'config base hash required; re-run config.get and retry' })).toBe(false);
  });

  it('maps the write rate limit to rate_limited with its retry-after', () => {
    const shape = {
      code: 'UNAVAILABLE',
      message: 'rate limit exceeded for config.patch; retry after 42s',
      retryable: true,
      retryAfterMs: 41_500,
      details: { method: 'config.patch', limit: '30 per 60s' },
    };
    expect(isTransient(shape)).toBe(false);
    const e = rpcError(URL, 'config.patch', shape);
    expect(e.code).toBe('rate_limited');
    expect(e.status).toBe(429);
    expect(e.details).toMatchObject({ retryAfterMs: 41_500, reason: 'rate_limited' });
    expect(e.hint).toBe('Try again in 42 s.');
  });

  it('maps refused auth, pairing, missing scope and a busy gateway', () => {
    const auth = rpcError(URL, 'connect', {
      code: 'INVALID_REQUEST',
      message: 'unauthorized: gateway token mismatch',
      details: { code: 'AUTH_TOKEN_MISMATCH' },
    });
    expect(auth.details).toMatchObject({ reason: 'auth_refused', detailCode: 'AUTH_TOKEN_MISMATCH' });
    const pair = rpcError(URL, 'connect', { code: 'NOT_PAIRED', message: 'pairing required', details: { code: 'PAIRING_REQUIRED', requestId: 'r-9' } });
    expect(pair.details).toMatchObject({ reason: 'pairing_required', requestId: 'r-9' });
    expect(pair.hint).toContain('openclaw devices approve r-9');
    const scope = rpcError(URL, 'config.get', {
      code: 'FORBIDDEN',
      message: 'missing scope: operator.admin',
      details: { code: 'MISSING_SCOPE', missingScope: 'operator.admin' },
    });
    expect(scope.details).toMatchObject({ reason: 'missing_scope', missingScope: 'operator.admin' });
    const starting = { code: 'UNAVAILABLE', message: 'starting', retryAfterMs: 500, details: { reason: 'startup-sidecars' } };
    expect(isTransient(starting)).toBe(true);
    expect(rpcError(URL, 'connect', starting).code).toBe('unavailable');
    expect(rpcError(URL, 'skills.status', { code: 'INVALID_REQUEST', message: 'unknown agent id "x"' }).details).toMatchObject({ reason: 'refused' });
  });
});
