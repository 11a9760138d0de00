import { describe, expect, it } from 'vitest';
import { RouteTable } from './route-table';

const table = () =>
  new RouteTable<string>()
    .add('GET', '/api/v1/jobs', 'listJobs')
    .add('POST', '/api/v1/jobs', 'startJob')
    .add('GET', '/api/v1/jobs/{id}', 'getJob')
    .add('GET', '/api/v1/jobs/kinds', 'jobKinds')
    .add('POST', '/api/v1/jobs/{id}/cancel', 'cancelJob')
    .add('GET', '/api/v1/skills/uploads/{id}/x', 'deep')
    .add('GET', '/api/v1/skills/{id}/file', 'skillFile')
    .add('GET', '/api/v1/agents/{id}/skills/{name}/files', 'agentFiles')
    .add('DELETE', '/api/v1/tokens/{id}', 'revoke');

describe('RouteTable', () => {
  it('matches static paths and methods', () => {
    expect(table().match('GET', '/api/v1/jobs')).toEqual({ kind: 'found', handler: 'listJobs', params: {} });
    expect(table().match('POST', '/api/v1/jobs')).toEqual({ kind: 'found', handler: 'startJob', params: {} });
  });

  it('prefers a static segment to a parameter, and falls back to the parameter when the static branch leads nowhere', () => {
    expect(table().match('GET', '/api/v1/jobs/kinds')).toMatchObject({ handler: 'jobKinds' });
    expect(table().match('GET', '/api/v1/jobs/abc')).toEqual({ kind: 'found', handler: 'getJob', params: { id: 'abc' } });
    // "uploads" is a static child of /skills, but only {id}/file exists below it.
    expect(table().match('GET', '/api/v1/skills/uploads/file')).toEqual({ kind: 'found', handler: 'skillFile', params: { id: 'uploads' } });
  });

  it('percent-decodes parameters as Next does (each parameter once, %2F included)', () => {
    expect(table().match('GET', '/api/v1/agents/a%20b/skills/x%2Fy/files')).toEqual({
      kind: 'found',
      handler: 'agentFiles',
      params: { id: 'a b', name: 'x/y' },
    });
    expect(table().match('GET', '/api/v1/jobs/%25')).toMatchObject({ params: { id: '%' } });
    expect(table().match('GET', '/api/v1/jobs/caf%C3%A9')).toMatchObject({ params: { id: 'café' } });
  });

  it('reports malformed percent-encoding as a bad parameter', () => {
    expect(table().match('GET', '/api/v1/jobs/%E0%A4%A')).toEqual({ kind: 'bad-param', name: 'id' });
    expect(table().match('GET', '/api/v1/jobs/%zz')).toEqual({ kind: 'bad-param', name: 'id' });
  });

  it('answers a method the path lacks with the Allow list Next sends', () => {
    expect(table().match('DELETE', '/api/v1/jobs')).toEqual({ kind: 'method', allow: 'GET, HEAD, OPTIONS, POST' });
    expect(table().match('GET', '/api/v1/tokens/t1')).toEqual({ kind: 'method', allow: 'DELETE, OPTIONS' });
    expect(table().match('HEAD', '/api/v1/jobs/j1')).toEqual({ kind: 'found', handler: 'getJob', params: { id: 'j1' } });
    expect(table().match('HEAD', '/api/v1/tokens/t1')).toEqual({ kind: 'method', allow: 'DELETE, OPTIONS' });
  });

  it('finds nothing for unknown paths, trailing slashes, empty or dot segments, and case changes', () => {
    for (const p of [
      '/api/v1/nope',
      '/api/v1/jobs/',
      '/api/v1//jobs',
      '/api/v1/jobs/a/b',
      '/API/v1/jobs',
      '/',
      '',
      'api/v1/jobs',
      '/api/v1/jobs/..',
      '/api/v1/jobs/%2e%2E',
      '/api/v1/jobs/.',
      '/api/v1',
    ])
      expect(table().match('GET', p), p).toEqual({ kind: 'none' });
  });

  it('refuses contradictory definitions', () => {
    expect(() => new RouteTable().add('GET', '/a/{id}', 1).add('GET', '/a/{name}/b', 2)).toThrow(/beside/);
    expect(() => new RouteTable().add('GET', '/a', 1).add('GET', '/a', 2)).toThrow(/twice/);
    expect(() => new RouteTable().add('GET', '/a/x{id}', 1)).toThrow(/whole parameter/);
    expect(() => new RouteTable().add('GET', 'a', 1)).toThrow(/start with/);
  });

  it('holds every contract of the API', async () => {
    const { api } = await import('@/lib/api/contracts');
    const t = new RouteTable<string>();
    for (const [name, c] of Object.entries(api)) t.add(c.method, c.path, name);
    for (const [name, c] of Object.entries(api)) {
      const path = c.path.replace(/\{[^}]+\}/g, 'x1');
      expect(t.match(c.method, path), name).toMatchObject({ kind: 'found', handler: name });
    }
  }, 60_000);
});
