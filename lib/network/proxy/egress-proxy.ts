// The egress proxy of one sandbox network. Web traffic from the sandboxes is redirected here (or
// sent here explicitly with CONNECT / absolute-form requests). It reads the destination name from the
// first bytes, asks the judge, resolves the name itself, asks the judge again with the addresses,
// and dials the first resolved address itself: never the address the sandbox aimed at and never a
// second resolution, so /etc/hosts spoofing inside the sandbox and DNS rebinding both fail.
//
// A connection is judged on its first request: an HTTP keep-alive connection that later sends a
// request with another Host still goes to the upstream chosen for the first one (the tunnel is
// bound to that upstream; the other site's server only sees a request for a Host it may not serve).
// Open tunnels are judged again when the policy changes (recheck), and the denied ones are ended.
//
// The proxy dials from the host's namespace, so besides the policy a guard refuses the host's own
// addresses and other networks' subnets: the proxy must never bridge around Docker's isolation.
import net from 'node:net';
import type { Decision } from '../policy/types';
import { answer, refuse, TLS_ACCESS_DENIED } from './answers';
import { MAX_PEEK, type Sniffed, sniff } from './sniff';
import { ClientCounts, type EgressVia, type Tunnel, TunnelRegistry } from './tunnels';
import type { EgressJudge, EgressProxyOptions, EgressStats } from './types';

export type { EgressVia, Tunnel } from './tunnels';
export type { EgressDecisionEvent, EgressJudge, EgressProxyOptions, EgressStats } from './types';

/** Idle time (no byte either way) after which a tunnel is closed, unless the options say otherwise. */
export const TUNNEL_IDLE_MS = 10 * 60_000;
/** Client connections one source address may hold open at once, unless the options say otherwise. */
export const MAX_CONNECTIONS_PER_CLIENT = 256;

const defaultDial = (ip: string, port: number) => net.connect({ host: ip, port, allowHalfOpen: true });

export class EgressProxy {
  private judge: EgressJudge;
  private readonly opts: EgressProxyOptions;
  private readonly servers = new Set<net.Server>();
  private readonly sockets = new Set<net.Socket>();
  private readonly counts = { accepted: 0, denied: 0, limited: 0, ended: 0 };
  private readonly tunnels = new TunnelRegistry();
  private readonly perClient = new ClientCounts();
  /** Bumped by every recheck: a connection judged before one is judged again before it dials. */
  private generation = 0;
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

  /** Replaces the policy: new connections are judged by it, and open tunnels it denies are ended. */
  setJudge(judge: EgressJudge): Promise<number> {
    this.judge = judge;
    return this.recheck();
  }

  /**
   * Judges every open tunnel again (the judge and the guard, on the addresses it was allowed with;
   * no new resolution) and ends the denied ones. Call after the policy behind the judge changed.
   */
  async recheck(): Promise<number> {
    this.generation++;
    const ended = await this.tunnels.sweep(async (t) => {
      const early = this.judge.name(t.host, t.port);
      if (early && !early.allowed) return early;
      const d = this.judge.resolved(t.host, t.port, t.addresses);
      if (!d.allowed) return d;
      return (await this.opts.guard?.(t.addresses)) ?? null;
    });
    for (const { tunnel: t, decision } of ended) this.opts.onTunnelEnded?.({ client: t.client, host: t.host, port: t.port, ip: t.ip, decision });
    this.counts.ended += ended.length;
    return ended.length;
  }

  /** The open tunnels (for tests and diagnostics). */
  openTunnels(): Omit<Tunnel, 'sockets'>[] {
    return this.tunnels.list().map(({ sockets: _, ...t }) => t);
  }

  stats(): EgressStats {
    return { open: this.clients, tunnels: this.tunnels.size, ...this.counts };
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
    const source = client.remoteAddress ?? '';
    const limit = this.opts.maxPerClient ?? MAX_CONNECTIONS_PER_CLIENT;
    const release = this.perClient.take(source, limit);
    if (!release) {
      this.counts.limited++;
      this.opts.onLimit?.({ client: source, open: this.perClient.of(source), limit });
      // Answered before anything is read: an HTTP client reads the 429, a TLS client fails its handshake.
      refuse(
        client,
        answer('429 Too Many Requests', `This sandbox address already holds ${limit} connections through the egress proxy.`, 'too-many-connections'),
      );
      return;
    }
    this.clients++;
    client.once('close', () => {
      this.clients--;
      release();
    });
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
      if (seen.http) refuse(client, answer('400 Bad Request', `Request refused: ${seen.reason}.`, 'bad-request'));
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
      if (seen.kind === 'tls') refuse(client, TLS_ACCESS_DENIED);
      else refuse(client, answer('403 Forbidden', decision.rule, 'blocked-by-policy'));
    };

    const early = judge.name(host, port);
    if (early && !early.allowed) return deny(early, []);
    let addresses: string[];
    if (net.isIP(host)) addresses = [host];
    else addresses = await this.opts.resolve(host).catch(() => []);
    if (client.destroyed) return;
    // The policy may have changed while the name was resolving: the judge in force now decides.
    const now = this.judge;
    const again = now === judge ? null : now.name(host, port);
    if (again && !again.allowed) return deny(again, addresses);
    const generation = this.generation;
    const decision = now.resolved(host, port, addresses);
    if (!decision.allowed) return deny(decision, addresses);
    if (addresses.length === 0) return deny({ ...decision, allowed: false, kind: 'unresolved', rule: `${host} did not resolve.` }, addresses);
    const guarded = await this.opts.guard?.(addresses);
    if (client.destroyed) return;
    if (guarded && !guarded.allowed) return deny(guarded, addresses);
    // A recheck ran while the guard answered: it could not see this connection, so judge it again.
    if (this.generation !== generation) {
      const late = this.judge.name(host, port) ?? this.judge.resolved(host, port, addresses);
      if (!late.allowed) return deny(late, addresses);
    }
    this.counts.accepted++;
    report(decision, addresses);
    const first = seen.kind === 'http' && seen.via === 'connect' ? head.subarray(seen.headEnd) : head;
    this.connect(client, { client: client.remoteAddress ?? '', host, port, via, addresses, ip: addresses[0] }, first, seen);
  }

  private connect(client: net.Socket, t: Omit<Tunnel, 'sockets'>, first: Buffer, seen: Exclude<Sniffed, { kind: 'more' | 'unknown' }>): void {
    if (this.closed) return void client.destroy();
    const { ip, port } = t;
    const upstream = (this.opts.dial ?? defaultDial)(ip, port);
    this.track(upstream);
    // Registered while it dials too, so a policy change in between still reaches it.
    this.tunnels.add({ ...t, sockets: [client, upstream] });
    upstream.setTimeout(this.opts.connectTimeoutMs ?? 10000, () => upstream.destroy());
    const fail = () => {
      if (seen.kind === 'http' && client.writable) refuse(client, answer('502 Bad Gateway', `Could not connect to ${seen.host}:${port}.`, 'upstream-failed'));
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
      // Each socket's timer restarts on any byte it sends or receives, so a tunnel ends only when
      // no byte moved either way for the whole idle time.
      const idle = this.opts.idleTimeoutMs ?? TUNNEL_IDLE_MS;
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
