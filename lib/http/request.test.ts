import { expect, it } from 'vitest';
import { readBodyCapped, readJsonBody } from './request';

const req = (body: BodyInit | null, headers: Record<string, string> = {}) => new Request('http://localhost/x', { method: 'POST', body, headers });

it('reads a raw body up to its cap and refuses more, declared or streamed', async () => {
  expect((await readBodyCapped(req('abc'), 3)).toString()).toBe('abc');
  expect((await readBodyCapped(req(null), 3)).length).toBe(0);
  await expect(readBodyCapped(req('abcd'), 3)).rejects.toMatchObject({ code: 'payload_too_large' });
  await expect(readBodyCapped(req('a', { 'content-length': '999' }), 3)).rejects.toMatchObject({ code: 'payload_too_large' });
});

it('reads JSON through the same cap', async () => {
  expect(await readJsonBody(req('{"a":1}', { 'content-type': 'application/json' }), 100)).toEqual({ a: 1 });
  expect(await readJsonBody(req(null), 100)).toEqual({});
  await expect(readJsonBody(req('{"a":1}', { 'content-type': 'application/json' }), 3)).rejects.toMatchObject({ code: 'payload_too_large' });
});
