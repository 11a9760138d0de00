import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { api } from '../api/contracts';
import { buildOpenApi } from '../api/openapi';
import { originAllowed, parseCookies } from './authenticate';
import { errorResponse } from './handler';
import { parseWith, queryObject, readJsonBody } from './request';

const post = (body: BodyInit | null, type = 'application/json', headers: Record<string, string> = {}) =>
  new Request('http://x/api', { method: 'POST', body, headers: { ...(type ? { 'content-type': type } : {}), ...headers } });

describe('request parsing', () => {
  it('reads JSON and refuses malformed, mistyped and oversize bodies', async () => {
    expect(await readJsonBody(post('{"a":1}'), 100)).toEqual({ a: 1 });
    await expect(readJsonBody(post('{"a":'), 100)).rejects.toMatchObject({ code: 'invalid_json' });
    await expect(readJsonBody(post('a=1', 'application/x-www-form-urlencoded'), 100)).rejects.toMatchObject({ code: 'unsupported_media_type' });
    expect(await readJsonBody(post('', ''), 100)).toEqual({});
    expect(await readJsonBody(post(null, ''), 100)).toEqual({});
    await expect(readJsonBody(post(JSON.stringify({ a: 'x'.repeat(200) })), 100)).rejects.toMatchObject({ code: 'payload_too_large' });
    // A lying Content-Length does not get past the streamed count.
    const stream = new ReadableStream({
      start: (c) => {
        c.enqueue(new TextEncoder().encode('{"a":"' + 'x'.repeat(500) + '"}'));
        c.close();
      },
    });
    await expect(
      readJsonBody(
        new Request('http://x', { method: 'POST', body: stream, headers: { 'content-type': 'application/json' }, duplex: 'half' } as RequestInit),
        100,
      ),
    ).rejects.toMatchObject({ code: 'payload_too_large' });
  });

  it('reports unknown fields and wrong types by path', () => {
    const s = z.strictObject({ n: z.number(), o: z.strictObject({ k: z.string() }) });
    try {
      parseWith(s, { n: 'x', o: { k: 'v', extra: 1 } }, 'request body');
      expect.unreachable();
    } catch (e) {
      const err = e as { code: string; issues: { path: string; message: string }[] };
      expect(err.code).toBe('validation');
      expect(err.issues.map((i) => i.path).sort()).toEqual(['n', 'o']);
      expect(err.issues.find((i) => i.path === 'o')?.message).toMatch(/Unknown field\(s\): extra/);
    }
  });

  it('turns repeated query keys into arrays', () => {
    expect(queryObject(new URL('http://x/?a=1&b=2&a=3'))).toEqual({ a: ['1', '3'], b: '2' });
  });
});

describe('cookies and origins', () => {
  it('parses cookies without letting a later duplicate win', () => {
    expect(parseCookies('a=1; b=x%20y; a=2')).toEqual({ a: '1', b: 'x y' });
    expect(parseCookies(undefined)).toEqual({});
  });
  it('allows same-host and listed origins only', () => {
    expect(originAllowed('http://console:3000', 'console:3000', [])).toBe(true);
    expect(originAllowed('http://evil.example', 'console:3000', [])).toBe(false);
    expect(originAllowed('https://proxy.example', 'console:3000', ['https://proxy.example'])).toBe(true);
    expect(originAllowed(null, 'console:3000', [], 'cross-site')).toBe(false);
    expect(originAllowed('null', 'console:3000', [])).toBe(false);
  });
});

describe('OpenAPI', () => {
  it('documents every contract with its security and error responses', () => {
    const doc = buildOpenApi('test') as unknown as {
      openapi: string;
      paths: Record<string, Record<string, { operationId: string; security: unknown[]; responses: Record<string, unknown> }>>;
    };
    expect(doc.openapi).toBe('3.1.0');
    for (const [name, c] of Object.entries(api)) {
      const path = doc.paths[c.path]?.[c.method.toLowerCase()];
      expect(path?.operationId, name).toBe(name);
      if (c.permission) {
        expect(path.security.length, name).toBeGreaterThan(0);
        expect(Object.keys(path.responses), name).toEqual(expect.arrayContaining(['401', '403']));
      }
    }
    const create = doc.paths['/api/v1/users'].post as unknown as {
      requestBody: { content: { 'application/json': { schema: { properties: Record<string, unknown>; additionalProperties: unknown } } } };
    };
    expect(Object.keys(create.requestBody.content['application/json'].schema.properties).sort()).toEqual(['email', 'name', 'password', 'role']);
  });
});

describe('unhandled errors', () => {
  it('answer 500 with a reference and log the whole cause chain, not only the wrapper', async () => {
    const driver = Object.assign(new Error('sorry, too many clients already'), { code: '53300' });
    const wrapped = new Error('Failed query: select "id" from "jobs" limit $1', { cause: driver });
    const lines: string[] = [];
    const spy = vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
      lines.push(String(chunk));
      return true;
    });
    let res: Response;
    try {
      res = errorResponse(wrapped);
    } finally {
      spy.mockRestore();
    }
    expect(res.status).toBe(500);
    const body = (await res.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe('internal');
    const logged = lines.map((l) => JSON.parse(l)).find((l) => l.msg === 'unhandled error in request');
    expect(body.error.message).toContain(logged.ref);
    expect(logged.error).toContain('Failed query');
    expect(logged.error).toContain('caused by: Error: sorry, too many clients already');
  });
});
