import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { routeRequestOf, sendWebResponse } from './node-web';
import { readBodyCapped } from './request';

let server: http.Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((r) => server?.close(r));
  server = undefined;
});

async function serve(handler: (req: http.IncomingMessage, res: http.ServerResponse) => void): Promise<string> {
  server = http.createServer(handler);
  await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const rawResponse = (url: string, init: http.RequestOptions = {}, body?: Buffer) =>
  new Promise<{ status: number; rawHeaders: string[]; body: Buffer }>((resolve, reject) => {
    const req = http.request(url, init, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.once('end', () => resolve({ status: res.statusCode!, rawHeaders: res.rawHeaders, body: Buffer.concat(chunks) }));
    });
    req.once('error', reject);
    req.end(body);
  });

describe("node request → the route's request", () => {
  it('carries method, URL with query, headers by any case, and the body streamed', async () => {
    let seen: { method: string; url: string; headers: (string | null)[]; body: string } | undefined;
    const base = await serve(async (req, res) => {
      const r = routeRequestOf(req, res);
      const headers = [r.headers.get('x-one'), r.headers.get('X-Two'), r.headers.get('x-absent')];
      seen = { method: r.method, url: r.url, headers, body: (await readBodyCapped(r, 1024)).toString() };
      res.end();
    });
    await rawResponse(`${base}/a/b?x=1&x=2`, { method: 'PUT', headers: { 'x-one': '1', 'x-two': 'z' } }, Buffer.from('hello body'));
    expect(seen).toEqual({ method: 'PUT', url: `${base}/a/b?x=1&x=2`, headers: ['1', 'z', null], body: 'hello body' });
  });

  it('has no body for GET, and makes neither signal nor body until asked', async () => {
    let body: unknown = 'unset';
    const base = await serve((req, res) => {
      const r = routeRequestOf(req, res);
      body = r.body;
      res.end(String(res.listenerCount('close')));
    });
    const out = await rawResponse(base, { agent: false });
    expect(body).toBeNull();
    const closeListeners = Number(out.body.toString());
    const base2 = await serve((req, res) => {
      void routeRequestOf(req, res).signal;
      res.end(String(res.listenerCount('close')));
    });
    expect(Number((await rawResponse(base2, { agent: false })).body.toString())).toBe(closeListeners + 1);
  });

  it.each([
    ['asked for', true],
    ['never asked for', false],
  ])('drains a body the route %s but did not read, so the kept-alive connection serves the next request', async (_, ask) => {
    let n = 0;
    const base = await serve((req, res) => {
      n++;
      const r = routeRequestOf(req, res);
      if (ask) void r.body;
      void sendWebResponse(res, new Response('{"error":"too large"}', { status: 413, headers: { 'content-type': 'application/json' } }));
    });
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const big = Buffer.alloc(2 * 1024 * 1024, 1);
    const first = await rawResponse(base, { method: 'POST', agent, headers: { 'content-type': 'application/json' } }, big);
    const second = await rawResponse(base, { method: 'POST', agent, headers: { 'content-type': 'application/json' } }, big);
    agent.destroy();
    expect([first.status, second.status, n]).toEqual([413, 413, 2]);
  });

  it('takes the headers as the server left them, not as the client sent them', async () => {
    let ip: string | null = null;
    const base = await serve((req, res) => {
      req.headers['x-skilldock-client-ip'] = '192.0.2.7';
      ip = routeRequestOf(req, res).headers.get('x-skilldock-client-ip');
      res.end();
    });
    await rawResponse(base, { headers: { 'x-skilldock-client-ip': '203.0.113.9' } });
    expect(ip).toBe('192.0.2.7');
  });

  it('aborts the signal when the client goes away before the answer ends', async () => {
    let signal: AbortSignal | undefined;
    let aborted: () => void = () => {};
    const abortedP = new Promise<void>((r) => (aborted = r));
    const base = await serve((req, res) => {
      signal = routeRequestOf(req, res).signal;
      signal.addEventListener('abort', () => aborted());
      res.writeHead(200).write('started');
    });
    await new Promise<void>((resolve) => {
      const req = http.get(base, (res) =>
        res.once('data', () => {
          req.destroy();
          resolve();
        }),
      );
    });
    await abortedP;
    expect(signal!.aborted).toBe(true);
  });

  it('does not abort once the answer was sent', async () => {
    let signal: AbortSignal | undefined;
    const base = await serve((req, res) => {
      signal = routeRequestOf(req, res).signal;
      res.end('done');
    });
    const out = await rawResponse(base, { agent: false });
    expect(out.body.toString()).toBe('done');
    expect(signal!.aborted).toBe(false);
  });
});

describe('Web Response → node response', () => {
  it('sends status, headers and each set-cookie on its own line', async () => {
    const base = await serve((_req, res) => {
      const h = new Headers({ 'content-type': 'application/json', 'x-a': '1' });
      h.append('set-cookie', 'a=1; Path=/');
      h.append('set-cookie', 'b=2; Path=/; HttpOnly');
      void sendWebResponse(res, new Response('{"ok":true}', { status: 201, headers: h }));
    });
    const out = await rawResponse(base);
    expect(out.status).toBe(201);
    const cookies = out.rawHeaders.filter((_, i) => i % 2 === 1 && out.rawHeaders[i - 1].toLowerCase() === 'set-cookie');
    expect(cookies).toEqual(['a=1; Path=/', 'b=2; Path=/; HttpOnly']);
    expect(out.body.toString()).toBe('{"ok":true}');
  });

  it('streams a large body through a slow reader, waiting for the socket to drain', async () => {
    const chunk = new Uint8Array(256 * 1024).fill(7);
    let pulled = 0;
    const base = await serve((_req, res) => {
      const body = new ReadableStream<Uint8Array>({
        pull(c) {
          if (pulled++ === 64) c.close();
          else c.enqueue(chunk);
        },
      });
      void sendWebResponse(res, new Response(body, { headers: { 'content-type': 'application/octet-stream' } }));
    });
    const total = await new Promise<number>((resolve) => {
      http.get(base, (res) => {
        let n = 0;
        res.pause();
        // Read slowly at first so the server's writes fill the socket buffer.
        setTimeout(() => res.resume(), 200);
        res.on('data', (c: Buffer) => (n += c.length));
        res.once('end', () => resolve(n));
      });
    });
    expect(total).toBe(64 * chunk.length);
  });

  it('cancels the stream when the client leaves, and sends no body for HEAD, 204 or 304', async () => {
    let cancelled = false;
    let resolveCancel: () => void = () => {};
    const cancelledP = new Promise<void>((r) => (resolveCancel = r));
    const base = await serve((req, res) => {
      if (req.url === '/head') return void sendWebResponse(res, new Response('body', { status: 200 }), true);
      if (req.url === '/304') return void sendWebResponse(res, new Response(null, { status: 304, headers: { etag: '"v1"' } }));
      const body = new ReadableStream<Uint8Array>({
        start(c) {
          c.enqueue(new TextEncoder().encode('data: 1\n\n'));
        },
        cancel() {
          cancelled = true;
          resolveCancel();
        },
      });
      void sendWebResponse(res, new Response(body, { headers: { 'content-type': 'text/event-stream' } }));
    });
    await new Promise<void>((resolve) => {
      const req = http.get(`${base}/sse`, (res) =>
        res.once('data', () => {
          req.destroy();
          resolve();
        }),
      );
    });
    await cancelledP;
    expect(cancelled).toBe(true);
    const head = await rawResponse(`${base}/head`, { method: 'HEAD' });
    expect(head.body.length).toBe(0);
    const nm = await rawResponse(`${base}/304`);
    expect(nm.status).toBe(304);
    expect(nm.rawHeaders).toContain('"v1"');
  });
});
