// The connection test never hands a stored API key to an endpoint other than the stored one: two
// loopback servers stand for the stored E2B API and another; only the stored one ever sees the key.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ConfigFixture, e2b, startConfigFixture } from '@/test/helpers/sandbox-configs';

interface Recorder {
  url: string;
  keys: (string | undefined)[];
  close(): Promise<void>;
}

async function recorder(): Promise<Recorder> {
  const keys: (string | undefined)[] = [];
  const server = http.createServer((req, res) => {
    keys.push(req.headers['x-api-key'] as string | undefined);
    req.resume();
    res.writeHead(200, { 'content-type': 'application/json' }).end('[]');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    keys,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

const KEY = 'e2b_stored_secret_key_value';
let f: ConfigFixture;
let stored: Recorder;
let other: Recorder;
let cfgId: string;
let base: Record<string, unknown>;

beforeAll(async () => {
  f = await startConfigFixture();
  [stored, other] = await Promise.all([recorder(), recorder()]);
  const body = e2b({ apiKey: KEY, apiUrl: stored.url, httpTimeoutSec: 5 });
  base = body.config;
  const r = await f.call('createSandboxConfig', f.tokens.admin, { body });
  expect(r.status).toBe(201);
  cfgId = r.json.id;
});

afterAll(async () => {
  await Promise.all([stored?.close(), other?.close()]);
  await f?.stop();
});

const test = (config: Record<string, unknown>) =>
  f.call('testSandboxConnection', f.tokens.admin, { body: { backend: 'e2b', id: cfgId, config: { ...base, ...config } } });

describe('config connection test and the stored secret', () => {
  it('"***" against the stored endpoint sends the stored key there', async () => {
    const r = await test({ apiKey: '***' });
    expect(r.status).toBe(200);
    expect(stored.keys.length).toBeGreaterThan(0);
    expect(stored.keys.every((k) => k === KEY)).toBe(true);
  });

  it.each([
    ['another API URL', () => ({ apiUrl: other.url })],
    ['another domain', () => ({ domain: 'elsewhere.test' })],
    ['TLS verification turned off', () => ({ skipTlsVerify: true })],
  ])('"***" with %s is refused with 400 and the other server receives nothing', async (_what, change) => {
    const before = stored.keys.length;
    const r = await test({ ...change(), apiKey: '***' });
    expect(r.status).toBe(400);
    expect(r.json.error.code).toBe('validation');
    expect(r.json.error.message).toMatch(/Type the apiKey again/);
    expect(r.json.error.issues[0].path).toBe('config.apiKey');
    expect(other.keys).toEqual([]);
    expect(stored.keys.length).toBe(before);
  });

  it('an empty key never falls back to the stored one', async () => {
    const r = await test({ apiUrl: other.url, apiKey: '' });
    expect(r.status).toBe(400);
    expect(other.keys).toEqual([]);
  });

  it('a key typed again is sent to the new endpoint, and only that key', async () => {
    const r = await test({ apiUrl: other.url, apiKey: 'typed_again_key' });
    expect(r.status).toBe(200);
    expect(other.keys.length).toBeGreaterThan(0);
    expect(other.keys.every((k) => k === 'typed_again_key')).toBe(true);
  });
});

describe('editing a config and the stored secret', () => {
  const patch = (config: Record<string, unknown>) => f.call('updateSandboxConfig', f.tokens.admin, { params: { id: cfgId }, body: { config } });

  it.each([
    ['"***"', { apiKey: '***' }],
    ['no key at all', {}],
  ])('moving the endpoint while keeping the key with %s is refused, and the config keeps its endpoint', async (_what, key) => {
    const r = await patch({ apiUrl: other.url, ...key });
    expect(r.status).toBe(400);
    expect(r.json.error.message).toMatch(/Type the apiKey again to send it to a new endpoint/);
    const now = await f.call('getSandboxConfig', f.tokens.admin, { params: { id: cfgId } });
    expect(now.json.config.apiUrl).toBe(stored.url);
  });

  it('keeping the key with "***" while changing anything else is fine', async () => {
    const r = await patch({ apiKey: '***', httpTimeoutSec: 7 });
    expect(r.status, JSON.stringify(r.json)).toBe(200);
    expect(r.json.config).toMatchObject({ apiUrl: stored.url, httpTimeoutSec: 7, apiKey: '***' });
  });
});
