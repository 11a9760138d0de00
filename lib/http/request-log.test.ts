import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Actor } from '../auth/actor';
import { logRequest, shouldLog } from './request-log';

describe('request log', () => {
  afterEach(() => {
    vi.restoreAllMocks();
    vi.unstubAllEnvs();
  });

  it.each([
    ['off', 'POST', 500, false],
    ['writes', 'GET', 200, false],
    ['writes', 'GET', 304, false],
    ['writes', 'GET', 404, true],
    ['writes', 'DELETE', 200, true],
    ['writes', 'POST', 202, true],
    ['all', 'GET', 304, true],
  ] as const)('%s logs %s answered %d: %s', (mode, method, status, logged) => {
    expect(shouldLog(mode, method, status)).toBe(logged);
  });

  it('writes one JSON line with method, path, status, duration and who — never the query', () => {
    vi.stubEnv('LOG_LEVEL', 'info');
    const out = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    const err = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const actor = { label: 'ops@example.com (token deploy)' } as Actor;
    logRequest('writes', new Request('http://localhost/api/v1/skills/import?token=s3cret', { method: 'POST' }), 202, 12.6, actor);
    logRequest('writes', new Request('http://localhost/api/v1/jobs', { method: 'GET' }), 503, 3, null);
    expect(out).toHaveBeenCalledTimes(1);
    const line = JSON.parse(String(out.mock.calls[0][0]));
    expect(line).toMatchObject({
      level: 'info',
      msg: 'request',
      method: 'POST',
      path: '/api/v1/skills/import',
      status: 202,
      ms: 13,
      by: 'ops@example.com (token deploy)',
    });
    expect(String(out.mock.calls[0][0])).not.toContain('s3cret');
    expect(JSON.parse(String(err.mock.calls[0][0]))).toMatchObject({ level: 'warn', path: '/api/v1/jobs', status: 503, by: null });
  });
});
