import { describe, expect, it } from 'vitest';
import { parseUpstreamError, transportError, upstreamError } from './errors';

const map = (status: number, body: unknown) => upstreamError('Sandbox x', parseUpstreamError(status, typeof body === 'string' ? body : JSON.stringify(body)));

describe('E2B error mapping', () => {
  it.each([
    [401, { code: 401, message: 'Invalid API key' }, 'sandbox_credentials_rejected', 502],
    [403, { code: 403, message: 'forbidden' }, 'sandbox_credentials_rejected', 502],
    [401, { code: 'unauthenticated', message: 'no user specified' }, 'sandbox_credentials_rejected', 502],
    [404, { code: 404, message: 'sandbox not found' }, 'sandbox_not_found', 404],
    [429, { code: 429, message: 'rate limited' }, 'sandbox_capacity', 503],
    [503, { code: 503, message: 'You have reached the maximum number of concurrent sandboxes' }, 'sandbox_capacity', 503],
    [400, { code: 400, message: 'x', error_code: 'sandbox_capacity_unavailable' }, 'sandbox_capacity', 503],
    [503, { code: 503, message: 'maintenance' }, 'sandbox_error', 502],
    [504, { code: 'deadline_exceeded', message: 'late' }, 'sandbox_timeout', 504],
    [500, 'plain failure', 'sandbox_error', 502],
  ])('%i %j → %s', (status, body, code, http) => {
    const e = map(status, body);
    expect(e).toMatchObject({ code, status: http });
  });

  it('keeps the upstream message and reads 502 HTML as a probable expiry', () => {
    const e = map(502, '<html><body>\n502 Bad Gateway</body></html>');
    expect(e.details).toMatchObject({ status: 502, upstreamMessage: '502 Bad Gateway' });
    expect(e.hint).toMatch(/expired/);
  });

  it('names TLS failures, timeouts and unreachable hosts', () => {
    const tls = transportError('api.x', Object.assign(new Error('fetch failed'), { cause: { code: 'SELF_SIGNED_CERT_IN_CHAIN' } }), false);
    expect(tls).toMatchObject({ code: 'sandbox_tls_error', details: { cause: 'SELF_SIGNED_CERT_IN_CHAIN' } });
    expect(transportError('api.x', Object.assign(new Error('x'), { code: 'ERR_TLS_CERT_ALTNAME_INVALID' }), false).code).toBe('sandbox_tls_error');
    expect(transportError('api.x', new Error('aborted'), true).code).toBe('sandbox_timeout');
    expect(transportError('api.x', Object.assign(new Error('x'), { code: 'UND_ERR_HEADERS_TIMEOUT' }), false).code).toBe('sandbox_timeout');
    expect(transportError('api.x', Object.assign(new Error('x'), { code: 'ECONNREFUSED' }), false)).toMatchObject({
      code: 'sandbox_unreachable',
      details: { cause: 'ECONNREFUSED' },
    });
  });
});
