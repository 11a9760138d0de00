// The egress proxy of one sandbox network. Web traffic from the sandboxes is redirected here (or
// sent here explicitly with CONNECT / absolute-form requests). It reads the destination name from the
// first bytes, asks the judge, resolves the name itself, asks the judge again with the addresses,
// and dials the first resolved address itself: never the address the sandbox aimed at and never a
// second resolution, so /etc/hosts spoofing inside the sandbox and DNS rebinding both fail.
//
// A connection is judged once, on its first request: an HTTP keep-alive connection that later sends
// a request with another Host still goes to the upstream chosen for the first one (the tunnel is
// bound to that upstream; the other site's server only sees a request for a Host it may not serve).
import net from 'node:net';
import type { Decision } from '../policy/types';
import { MAX_PEEK, type Sniffed, sniff } from './sniff';

export interface EgressJudge {
  /** A denial now, or null: resolve the name, then ask resolved(). */
  name(host: string, port: number): Decision | null;
  resolved(host: string, port: number, addresses: string[]): Decision;
}

export type EgressVia = 'sni' | 'host' | 'connect' | 'absolute';

export interface EgressDecisionEvent {
  client: string;
  host: string;
  port: number;
  via: EgressVia;
  decision: Decision;
  addresses: string[];
}

export interface EgressProxyOptions {
  judge: EgressJudge;
  /** A and AAAA records of a name (IP literals never reach it). */
  resolve: (host: string) => Promise<string[]>;
  /** Opens the upstream connection; net.connect by default. */
  dial?: (ip: string, port: number) => net.Socket;
  onDecision?: (e: EgressDecisionEvent) => void;
  /** Time to send the first bytes (SNI / request head); default 5000. */
  peekTimeoutMs?: number;
  /** Time for the upstream to accept; default 10000. */
  connectTimeoutMs?: number;
  /** Idle time after which a tunnel is closed; default none. */
  idleTimeoutMs?: number;
  /** Client connections open at once per listener; more are refused. Default 4096. */
  maxConnections?: number;
}

export interface EgressStats {
  /** Client connections open now. */
  open: number;
  /** Connections allowed and dialled. */
  accepted: number;
  /** Connections refused: by the judge, or because their first bytes named no destination. */
  denied: number;
}

/** A fatal TLS alert record, access_denied (49): the client reports a refusal, not a reset. */
const TLS_ACCESS_DENIED = Buffer.from([0x15, 0x03, 0x03, 0x00, 0x02, 0x02, 0x31]);

const defaultDial = (ip: string, port: number) => net.connect({ host: ip, port, allowHalfOpen: true });

function answer(status: string, rule: string, proxyError: string): string {
  const body = rule.replace(/[\r\n]+/g, ' ') + '\n';
  return (
    `HTTP/1.1 ${status}\r\nX-Proxy-Error: ${proxyError}\r\nContent-Type: text/plain; charset=utf-8\r\n` +
    `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`
  );
}

export class EgressProxy {
  private judge: EgressJudge;
  private readonly opts: EgressProxyOptions;
  private readonly servers = new Set<net.Server>();
  private readonly sockets = new Set<net.Socket>();
  private readonly counts = { accepted: 0, denied: 0 };
  private clients = 0;
  private closed = false;

  constructor(opts: EgressProxyOptions) {
    this.opts = opts;
    this.judge = opts.judge;
  }

  /** Starts listening; resolves with the bound port (useful with port 0). */
  listen(host: string, port: number): Promise<number> {
    const server = net.createServer({ allowHalfOpen: true }, (socket) => this.accept(socket));
    server.maxConnections = this.opts.maxConnections ?? 4096;
    this.servers.add(server);
    return new Promise((resolve, reject) => {
      const failed = (e: Error) => {
        this.servers.delete(server);
        reject(e);
      };
      server.once('error', failed);
      server.listen({ host, port }, () => {
        server.off('error', failed);
        server.on('error', () => {});
        resolve((server.address() as net.AddressInfo).port);
      });
    });
  }

  /** Replaces the policy; every connection whose first bytes arrive from now on is judged by it. */
  setJudge(judge: EgressJudge): void {
    this.judge = judge;
  }

  stats(): EgressStats {
    return { open: this.clients, ...this.counts };
  }

  /** Stops the listeners and ends every open connection and tunnel. */
  async close(): Promise<void> {
    this.closed = true;
    const done = [...this.servers].map((s) => new Promise<void>((r) => s.close(() => r())));
    for (const s of this.sockets) s.destroy();
    this.sockets.clear();
    this.servers.clear();
    await Promise.all(done);
  }

  private track(socket: net.Socket): void {
    this.sockets.add(socket);
    socket.on('error', () => socket.destroy());
    socket.once('close', () => this.sockets.delete(socket));
  }

  private accept(client: net.Socket): void {
    if (this.closed) return void client.destroy();
    this.track(client);
    this.clients++;
    client.once('close', () => this.clients--);
    const chunks: Buffer[] = [];
    let size = 0;
    const timer = setTimeout(() => client.destroy(), this.opts.peekTimeoutMs ?? 5000);
    const stop = () => {
      clearTimeout(timer);
      client.off('data', onData);
      client.off('end', onEnd);
      client.pause();
    };
    const onEnd = () => {
      stop();
      client.destroy();
    };
    const onData = (chunk: Buffer) => {
      chunks.push(chunk);
      size += chunk.length;
      const head = Buffer.concat(chunks, size);
      const seen = sniff(head.length > MAX_PEEK ? head.subarray(0, MAX_PEEK) : head);
      if (seen.kind === 'more') return;
      stop();
      this.route(client, head, seen).catch(() => client.destroy());
    };
    client.on('data', onData);
    client.once('end', onEnd);
    client.once('close', () => clearTimeout(timer));
  }

  private async route(client: net.Socket, head: Buffer, seen: Exclude<Sniffed, { kind: 'more' }>): Promise<void> {
    if (seen.kind === 'unknown') {
      this.counts.denied++;
      if (seen.http) client.end(answer('400 Bad Request', `Request refused: ${seen.reason}.`, 'bad-request'));
      else client.destroy();
      return;
    }
    const judge = this.judge;
    const via: EgressVia = seen.kind === 'tls' ? 'sni' : seen.via;
    const host = seen.host;
    const port = seen.kind === 'tls' ? 443 : seen.port;
    const report = (decision: Decision, addresses: string[]) =>
      this.opts.onDecision?.({ client: client.remoteAddress ?? '', host, port, via, decision, addresses });
    const deny = (decision: Decision, addresses: string[]) => {
      this.counts.denied++;
      report(decision, addresses);
      if (seen.kind === 'tls') client.end(TLS_ACCESS_DENIED);
      else client.end(answer('403 Forbidden', decision.rule, 'blocked-by-policy'));
    };

    const early = judge.name(host, port);
    if (early && !early.allowed) return deny(early, []);
    let addresses: string[];
    if (net.isIP(host)) addresses = [host];
    else addresses = await this.opts.resolve(host).catch(() => []);
    if (client.destroyed) return;
    const decision = judge.resolved(host, port, addresses);
    if (!decision.allowed) return deny(decision, addresses);
    if (addresses.length === 0) return deny({ ...decision, allowed: false, kind: 'unresolved', rule: `${host} did not resolve.` }, addresses);
    this.counts.accepted++;
    report(decision, addresses);
    this.connect(client, addresses[0], port, seen.kind === 'http' && seen.via === 'connect' ? head.subarray(seen.headEnd) : head, seen);
  }

  private connect(client: net.Socket, ip: string, port: number, first: Buffer, seen: Exclude<Sniffed, { kind: 'more' | 'unknown' }>): void {
    if (this.closed) return void client.destroy();
    const upstream = (this.opts.dial ?? defaultDial)(ip, port);
    this.track(upstream);
    upstream.setTimeout(this.opts.connectTimeoutMs ?? 10000, () => upstream.destroy());
    const fail = () => {
      if (seen.kind === 'http' && client.writable) client.end(answer('502 Bad Gateway', `Could not connect to ${seen.host}:${port}.`, 'upstream-failed'));
      else client.destroy();
    };
    // Before the upstream accepts: a refusal, an error or the connect timeout all end in 'close'.
    const early = () => upstream.destroy();
    upstream.once('close', fail);
    client.once('close', early);
    upstream.once('connect', () => {
      upstream.off('close', fail);
      client.off('close', early);
      const both = () => {
        client.destroy();
        upstream.destroy();
      };
      // An orderly end travels through the pipes (half-close); only a reset or a timeout ends both.
      client.once('close', (hadError) => hadError && upstream.destroy());
      upstream.once('close', (hadError) => hadError && client.destroy());
      const idle = this.opts.idleTimeoutMs ?? 0;
      upstream.setTimeout(idle, both);
      if (idle > 0) client.setTimeout(idle, both);
      if (seen.kind === 'http' && seen.via === 'connect') client.write('HTTP/1.1 200 Connection established\r\n\r\n');
      if (first.length > 0) upstream.write(first);
      client.pipe(upstream);
      upstream.pipe(client);
      client.resume();
    });
  }
}
