import http from 'node:http';
import net from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { SocketRouter } from './ws-router';

let server: http.Server;
let port: number;

beforeAll(async () => {
  const router = new SocketRouter(async () => {
    throw new Error('no route here needs services');
  });
  server = http.createServer((_req, res) => res.end('ok'));
  server.on('upgrade', (req, socket, head) => router.handleUpgrade(req, socket, head));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as net.AddressInfo).port;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

/** A raw upgrade request; resolves with what the server wrote once it closed the connection. */
function upgrade(path: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const s = net.connect(port, '127.0.0.1');
    let got = '';
    s.on('data', (d) => (got += d));
    s.on('error', reject);
    s.on('close', () => resolve(got));
    s.on('end', () => s.end());
    s.write(
      `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n`,
    );
  });
}

it('answers an upgrade to a path outside /ws/ and closes the socket', async () => {
  const answer = await upgrade('/foo');
  expect(answer).toMatch(/^HTTP\/1\.1 404 /);
  expect(answer).toContain('"code":"not_found"');
});

it('answers unknown /ws/ and /_next/ paths the same way in production', async () => {
  expect(await upgrade('/ws/nope')).toMatch(/^HTTP\/1\.1 404 /);
  expect(await upgrade('/_next/webpack-hmr')).toMatch(/^HTTP\/1\.1 404 /);
});

it('leaves a passed-through path to another listener', () => {
  const router = new SocketRouter(
    async () => {
      throw new Error('unused');
    },
    (p) => p.startsWith('/_next/'),
  );
  const socket = new net.Socket();
  expect(router.handleUpgrade({ url: '/_next/webpack-hmr', headers: {} } as http.IncomingMessage, socket, Buffer.alloc(0))).toBe(false);
  socket.destroy();
});
