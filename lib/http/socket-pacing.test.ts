import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket, WebSocketServer } from 'ws';
import { pacedSender } from './socket-pacing';

let wss: WebSocketServer | undefined;
afterEach(async () => {
  for (const c of wss?.clients ?? []) c.terminate();
  await new Promise<void>((r) => (wss ? wss.close(() => r()) : r()));
});

/** A loopback server whose first connection is handed to the test, and a client connected to it. */
async function pair(clientOpts: ConstructorParameters<typeof WebSocket>[2] = {}) {
  wss = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  await new Promise((r) => wss!.once('listening', r));
  const server = new Promise<WebSocket>((r) => wss!.once('connection', r));
  const client = new WebSocket(`ws://127.0.0.1:${(wss.address() as AddressInfo).port}`, clientOpts);
  await new Promise((r) => client.once('open', r));
  return { server: await server, client };
}
const until = async (check: () => boolean) => {
  while (!check()) await new Promise((r) => setTimeout(r, 10));
};

describe('paced socket sender', () => {
  it('keeps the send buffer of a reader that stopped reading bounded, then closes it', async () => {
    const { server, client } = await pair();
    (client as unknown as { _socket: { pause(): void } })._socket.pause();
    const maxBufferedBytes = 64 * 1024;
    const send = pacedSender(server, { maxBufferedBytes, maxHeld: 50, pingMs: 60_000 });
    const payload = 'x'.repeat(8 * 1024);
    let most = 0;
    const closed = new Promise<number>((r) => server.once('close', (code) => r(code)));
    for (let i = 0; i < 20_000 && server.readyState === server.OPEN; i++) {
      send(`job-${i % 100}`, `${i}:${payload}`);
      most = Math.max(most, server.bufferedAmount);
      if (i % 100 === 0) await new Promise((r) => setImmediate(r));
    }
    // 20,000 messages of 8 KiB are 160 MiB; the socket never held more than the bound plus one message.
    expect(most).toBeLessThanOrEqual(maxBufferedBytes + payload.length + 16);
    (client as unknown as { _socket: { resume(): void } })._socket.resume();
    expect(await closed).toBe(1013);
  });

  it('sends the latest message per key once a slow socket drains', async () => {
    const { server, client } = await pair();
    const socket = (client as unknown as { _socket: { pause(): void; resume(): void } })._socket;
    socket.pause();
    const got: string[] = [];
    client.on('message', (d) => got.push(String(d).slice(0, 8)));
    const send = pacedSender(server, { maxBufferedBytes: 64 * 1024, maxHeld: 1000, pingMs: 60_000, drainMs: 10 });
    const big = 'f'.repeat(64 * 1024);
    for (let i = 0; server.bufferedAmount <= 64 * 1024; i++) {
      send(`fill-${i}`, big);
      await new Promise((r) => setImmediate(r));
    }
    send('a', 'a2');
    send('b', 'b1');
    send('a', 'a3');
    socket.resume();
    await until(() => got.includes('a3') && got.includes('b1'));
    expect(got).not.toContain('a2');
    expect(got.indexOf('b1')).toBeLessThan(got.indexOf('a3'));
  });

  it('terminates a peer that stops answering pings', async () => {
    const { server } = await pair({ autoPong: false });
    pacedSender(server, { maxBufferedBytes: 1024, maxHeld: 10, pingMs: 20 });
    const code = await new Promise<number>((r) => server.once('close', (c) => r(c)));
    expect(code).toBe(1006);
  });
});
