import { describe, expect, it } from 'vitest';
import { resolveGithubToken } from './client';
import { sendsToken } from './http';

const ENV = { GITHUB_TOKEN: 'g', GH_TOKEN: 'h' };

describe('where a GitHub token may go', () => {
  it('the env token is used for the default API base only', () => {
    expect(resolveGithubToken(null, ENV, 'https://api.github.com')).toEqual({ token: 'g', source: 'GITHUB_TOKEN' });
    expect(resolveGithubToken(null, ENV, 'https://api.github.com/')).toEqual({ token: 'g', source: 'GITHUB_TOKEN' });
    expect(resolveGithubToken(null, ENV, 'https://ghe.example.com/api/v3')).toEqual({ token: null, source: 'none' });
    expect(resolveGithubToken(null, { GH_TOKEN: 'h' }, 'http://127.0.0.1:9999')).toEqual({ token: null, source: 'none' });
    expect(resolveGithubToken('s', ENV, 'https://ghe.example.com/api/v3')).toEqual({ token: 's', source: 'setting' });
  });

  it('no token over plain http, except to a loopback API base', () => {
    const policy = (base: string) => ({ apiBase: new URL(base) });
    expect(sendsToken(new URL('http://mirror.example.com/repos/o/r'), policy('http://mirror.example.com/'))).toBe(false);
    expect(sendsToken(new URL('http://10.0.0.5:8080/repos/o/r'), policy('http://10.0.0.5:8080/'))).toBe(false);
    expect(sendsToken(new URL('http://127.0.0.1:8080/repos/o/r'), policy('http://127.0.0.1:8080/'))).toBe(true);
    expect(sendsToken(new URL('http://localhost:8080/repos/o/r'), policy('http://localhost:8080/'))).toBe(true);
    expect(sendsToken(new URL('http://[::1]:8080/repos/o/r'), policy('http://[::1]:8080/'))).toBe(true);
    expect(sendsToken(new URL('https://ghe.example.com/api/v3/x'), policy('https://ghe.example.com/api/v3/'))).toBe(true);
    expect(sendsToken(new URL('https://other.example.com/x'), policy('https://ghe.example.com/api/v3/'))).toBe(false);
  });
});
