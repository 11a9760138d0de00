// One query sent to one upstream and its answer read back, over UDP or TCP. Each exchange has a
// socket of its own (a fresh source port), connected to the upstream, and only a response with the
// query's id is taken; anything else is ignored until the timeout.
import dgram from 'node:dgram';
import net from 'node:net';
import { readHeader } from './wire';

export interface Upstream {
  host: string;
  port: number;
  text: string;
}

/** Registers how to abort an exchange when the forwarder closes; returns the unregistration. */
export type Track = (abort: () => void) => () => void;

export type Exchange = (up: Upstream, msg: Buffer, id: number, timeoutMs: number, track: Track) => Promise<Buffer | null>;

/** `ip:port`, `[ipv6]:port` or a bare IP (port 53). */
export function parseUpstream(text: string): Upstream {
  let host: string;
  let port: string;
  if (text.startsWith('[')) {
    const close = text.indexOf(']');
    host = text.slice(1, close);
    port = text.slice(close + 2);
  } else if (net.isIP(text)) {
    host = text;
    port = '53';
  } else {
    const colon = text.lastIndexOf(':');
    host = text.slice(0, colon);
    port = text.slice(colon + 1);
  }
  const n = Number(port);
  if (!net.isIP(host) || !Number.isInteger(n) || n < 1 || n > 65535) throw new Error(`bad DNS upstream ${text}`);
  return { host, port: n, text };
}

const isAnswer = (buf: Buffer, id: number) => {
  const h = readHeader(buf);
  return h?.response === true && h.id === id;
};

export const udpExchange: Exchange = (up, msg, id, timeoutMs, track) =>
  new Promise((resolve) => {
    const sock = dgram.createSocket(net.isIPv6(up.host) ? 'udp6' : 'udp4');
    let untrack = () => {};
    const finish = (answer: Buffer | null) => {
      clearTimeout(timer);
      untrack();
      try {
        sock.close();
      } catch {}
      resolve(answer);
    };
    const timer = setTimeout(() => finish(null), timeoutMs);
    untrack = track(() => finish(null));
    // Connected: a refused port is reported at once, and only this upstream's datagrams arrive.
    sock.on('error', () => finish(null));
    sock.on('message', (answer) => isAnswer(answer, id) && finish(answer));
    sock.connect(up.port, up.host, () => sock.send(msg));
  });

/** DNS over TCP: each message carries a two-byte length in front. */
export const tcpExchange: Exchange = (up, msg, id, timeoutMs, track) =>
  new Promise((resolve) => {
    const sock = net.connect({ host: up.host, port: up.port });
    let untrack = () => {};
    let buf = Buffer.alloc(0);
    let done = false;
    const finish = (answer: Buffer | null) => {
      if (done) return;
      done = true;
      untrack();
      sock.destroy();
      resolve(answer);
    };
    untrack = track(() => finish(null));
    sock.setTimeout(timeoutMs, () => finish(null));
    sock.on('error', () => finish(null));
    sock.on('close', () => finish(null));
    sock.on('connect', () => {
      const len = Buffer.alloc(2);
      len.writeUInt16BE(msg.length);
      sock.write(Buffer.concat([len, msg]));
    });
    sock.on('data', (chunk: Buffer) => {
      buf = Buffer.concat([buf, chunk]);
      while (buf.length >= 2 && buf.length >= 2 + buf.readUInt16BE(0)) {
        const answer = buf.subarray(2, 2 + buf.readUInt16BE(0));
        buf = buf.subarray(2 + answer.length);
        if (isAnswer(answer, id)) return finish(Buffer.from(answer));
      }
    });
  });
