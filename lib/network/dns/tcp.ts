// DNS over TCP on the forwarder's port: resolvers retry there when a UDP answer comes back truncated.
// Messages are length-prefixed; one connection is served one query at a time, bounded in bytes
// buffered, in idle time and in connections.
import net from 'node:net';
import { MAX_QUERY } from './wire';

/** The answer to one query message, or null to close the connection (malformed or refused). */
export type Handle = (msg: Buffer, client: string) => Promise<Buffer | null>;

export interface TcpOptions {
  idleTimeoutMs: number;
  maxConnections: number;
}

export function tcpServer(handle: Handle, opts: TcpOptions): { server: net.Server; sockets: Set<net.Socket> } {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
    socket.setTimeout(opts.idleTimeoutMs, () => socket.destroy());
    const client = socket.remoteAddress ?? '';
    let buf = Buffer.alloc(0);
    let busy = false;
    const pump = () => {
      if (busy || socket.destroyed || buf.length < 2) return;
      const len = buf.readUInt16BE(0);
      if (len > MAX_QUERY) return void socket.destroy();
      if (buf.length < 2 + len) return;
      const msg = Buffer.from(buf.subarray(2, 2 + len));
      buf = buf.subarray(2 + len);
      busy = true;
      handle(msg, client).then(
        (answer) => {
          busy = false;
          if (!answer) return void socket.destroy();
          const prefix = Buffer.alloc(2);
          prefix.writeUInt16BE(answer.length);
          if (!socket.destroyed) socket.write(Buffer.concat([prefix, answer]));
          pump();
        },
        () => socket.destroy(),
      );
    };
    socket.on('data', (chunk: Buffer) => {
      buf = Buffer.concat([buf, chunk]);
      if (buf.length > 2 * (MAX_QUERY + 2)) return void socket.destroy();
      pump();
    });
  });
  server.maxConnections = opts.maxConnections;
  server.on('error', () => {});
  return { server, sockets };
}
