// Network benchmarks on loopback: an HTTP server on 127.0.0.1 reached directly and through an
// EgressProxy whose judge allows `bench.test` (resolved to 127.0.0.1 by the bench), the proxy both
// in this process (sharing its one thread with client and server) and alone in a child process:
// - connection setup, connect() to the first response byte of a small GET (Host form and CONNECT);
// - throughput of a large download streamed from memory.
// The Docker part (a policy change reaching a running sandbox) is in network-docker.ts.
import http from 'node:http';
import net from 'node:net';
import { fmt, nowMs, percentile } from './common';
import { type NetworkDockerBench, policyChangeBench } from './network-docker';
import { BENCH_NAME, benchProxy, startProxyChild } from './network-proxy';

export interface Spread {
  p50Ms: number;
  p95Ms: number;
}
type Kinds<T> = { direct: T; proxied: T; proxiedApart: T };
export interface NetworkBench {
  /** proxied: the proxy in this process; proxiedApart: alone in a child process, as in production. */
  setup: Kinds<Spread> & { connections: number; connect: Spread; ratio: number; connectRatio: number; apartRatio: number };
  download: { bytes: number; runs: number; runsMs: Kinds<number[]>; MiBps: Kinds<number>; ratio: number; apartRatio: number };
  policyChange: NetworkDockerBench | { skipped: string };
}

const spread = (xs: number[]): Spread => {
  const s = [...xs].sort((a, b) => a - b);
  return { p50Ms: percentile(s, 50), p95Ms: percentile(s, 95) };
};
const median = (xs: number[]) => spread(xs).p50Ms;

const listen = (s: net.Server) => new Promise<number>((r) => s.listen(0, '127.0.0.1', () => r((s.address() as net.AddressInfo).port)));

function startServer(bytes: number) {
  const chunk = Buffer.alloc(Math.min(bytes, 1 << 20), 0x61);
  return http.createServer((req, res) => {
    req.resume();
    if (req.url !== '/big') return void res.end('ok\n');
    res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': bytes });
    let left = bytes;
    const pump = () => {
      while (left > 0) {
        const n = Math.min(left, chunk.length);
        left -= n;
        if (!res.write(n === chunk.length ? chunk : chunk.subarray(0, n))) return void res.once('drain', pump);
      }
      res.end();
    };
    pump();
  });
}

const get = (path: string, host: string) => `GET ${path} HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`;

/** connect() to the first byte of the answer to `request` (after a CONNECT to `tunnel` when given). */
function firstByteMs(port: number, request: string, tunnel?: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const t0 = nowMs();
    const s = net.connect({ host: '127.0.0.1', port });
    let tunnelled = !tunnel;
    let head = '';
    const fail = (e: Error) => {
      clearTimeout(timer);
      s.destroy();
      reject(e);
    };
    const timer = setTimeout(() => fail(new Error('no answer within 10 s')), 10_000);
    s.once('connect', () => s.write(tunnel ? `CONNECT ${tunnel} HTTP/1.1\r\nHost: ${tunnel}\r\n\r\n` : request));
    s.on('data', (c: Buffer) => {
      const text = c.toString('latin1');
      if (!tunnelled) {
        head += text;
        if (!head.includes('\r\n\r\n')) return;
        if (!head.startsWith('HTTP/1.1 200')) return fail(new Error(`CONNECT refused: ${head.split('\r\n')[0]}`));
        tunnelled = true;
        return void s.write(request);
      }
      const ms = nowMs() - t0;
      if (!text.startsWith('HTTP/1.1 200')) return fail(new Error(`unexpected answer: ${text.split('\r\n')[0]}`));
      clearTimeout(timer);
      s.destroy();
      resolve(ms);
    });
    s.on('error', fail);
  });
}

/** The whole answer to a GET of /big, to the server's close; returns the time it took. */
function downloadMs(port: number, host: string, bytes: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const t0 = nowMs();
    let got = 0;
    const s = net.connect({ host: '127.0.0.1', port }, () => s.write(get('/big', host)));
    s.on('data', (c: Buffer) => {
      got += c.length;
    });
    s.on('end', () => (got >= bytes ? resolve(nowMs() - t0) : reject(new Error(`download ended after ${got} of ${bytes} bytes`))));
    s.on('error', reject);
  });
}

export interface NetworkKnobs {
  connections: number;
  megabytes: number;
  /** Downloads of each kind, after one warm-up. */
  runs: number;
  saves: number;
}

export async function networkBench({ connections, megabytes, runs, saves }: NetworkKnobs): Promise<NetworkBench> {
  const loopback = await loopbackBench(connections, megabytes, runs);
  return { ...loopback, policyChange: await policyChangeBench(saves) };
}

async function loopbackBench(connections: number, megabytes: number, RUNS: number): Promise<Omit<NetworkBench, 'policyChange'>> {
  const bytes = Math.round(megabytes * 1024 * 1024);
  const server = startServer(bytes);
  const proxy = benchProxy();
  let child: Awaited<ReturnType<typeof startProxyChild>> | undefined;
  try {
    const port = await listen(server);
    const proxyPort = await proxy.listen('127.0.0.1', 0);
    child = await startProxyChild();
    const authority = `${BENCH_NAME}:${port}`;
    const own = `127.0.0.1:${port}`;
    const ends = {
      direct: () => firstByteMs(port, get('/', own)),
      proxied: () => firstByteMs(proxyPort, get('/', authority)),
      connect: () => firstByteMs(proxyPort, get('/', authority), authority),
      proxiedApart: () => firstByteMs(child!.port, get('/', authority)),
    };
    const times = { direct: [] as number[], proxied: [] as number[], connect: [] as number[], proxiedApart: [] as number[] };
    // A few warm-ups, then the kinds interleaved so drift on a loaded machine hits all alike.
    for (let i = -10; i < connections; i++) {
      for (const k of Object.keys(ends) as (keyof typeof ends)[]) {
        const ms = await ends[k]();
        if (i >= 0) times[k].push(ms);
      }
    }
    const s = { direct: spread(times.direct), proxied: spread(times.proxied), connect: spread(times.connect), proxiedApart: spread(times.proxiedApart) };

    const dl = { direct: [] as number[], proxied: [] as number[], proxiedApart: [] as number[] };
    const fetchers = {
      direct: () => downloadMs(port, own, bytes),
      proxied: () => downloadMs(proxyPort, authority, bytes),
      proxiedApart: () => downloadMs(child!.port, authority, bytes),
    };
    for (let i = -1; i < RUNS; i++) {
      for (const k of Object.keys(fetchers) as (keyof typeof fetchers)[]) {
        const ms = await fetchers[k]();
        if (i >= 0) dl[k].push(ms);
      }
    }
    const mbps = (ms: number) => bytes / 1024 / 1024 / (ms / 1000);
    const rate = { direct: mbps(median(dl.direct)), proxied: mbps(median(dl.proxied)), proxiedApart: mbps(median(dl.proxiedApart)) };
    const p50 = s.direct.p50Ms;
    return {
      setup: { connections, ...s, ratio: s.proxied.p50Ms / p50, connectRatio: s.connect.p50Ms / p50, apartRatio: s.proxiedApart.p50Ms / p50 },
      download: {
        bytes,
        runs: RUNS,
        runsMs: dl,
        MiBps: rate,
        ratio: rate.proxied / rate.direct,
        apartRatio: rate.proxiedApart / rate.direct,
      },
    };
  } finally {
    await child?.stop();
    await proxy.close();
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  }
}

/** The figures as the bench prints them. */
export function describeNetwork(nb: NetworkBench): string[] {
  const t = (x: Spread) => `p50 ${fmt(x.p50Ms, 2)} ms, p95 ${fmt(x.p95Ms, 2)} ms`;
  const s = nb.setup;
  const d = nb.download;
  const runs = (xs: number[]) => `[${xs.map((x) => fmt(x, 0)).join(', ')} ms]`;
  const out = [
    `\n== Connection setup through the egress proxy (loopback; ${s.connections} connections each, interleaved, after 10 warm-ups) ==`,
    `baseline (connect() to the first response byte of a small GET, straight to the server): ${t(s.direct)}`,
    `proxied, proxy in the bench's process (same GET to the proxy, Host: bench.test: judged, resolved, dialled): ${t(s.proxied)}`,
    `proxied by CONNECT, proxy in the bench's process (tunnel answered, then the GET): ${t(s.connect)}`,
    `proxied, proxy alone in a child process (as in the console): ${t(s.proxiedApart)}`,
    `ratio: proxied p50 ×${fmt(s.ratio, 2)}, CONNECT p50 ×${fmt(s.connectRatio, 2)}, proxy apart p50 ×${fmt(s.apartRatio, 2)} of direct`,
    `\n== Download of ${fmt(d.bytes / 1024 / 1024, 0)} MiB streamed from memory (loopback; median of ${d.runs} after 1 warm-up, interleaved) ==`,
    `baseline (direct; client and server share this process's thread): ${fmt(d.MiBps.direct, 0)} MiB/s  ${runs(d.runsMs.direct)}`,
    `through the proxy in the same process (three ends on one thread): ${fmt(d.MiBps.proxied, 0)} MiB/s  ${runs(d.runsMs.proxied)}`,
    `through the proxy alone in a child process: ${fmt(d.MiBps.proxiedApart, 0)} MiB/s  ${runs(d.runsMs.proxiedApart)}`,
    `ratio: throughput ×${fmt(d.ratio, 2)} in-process, ×${fmt(d.apartRatio, 2)} proxy apart, of direct (target ≥ 0.8)`,
  ];
  const pc = nb.policyChange;
  out.push(`\n== Policy save to rule effective in a running Docker sandbox (busybox on its enforced bridge; allow ⇄ deny of a peer's subnet) ==`);
  if ('skipped' in pc) return [...out, `skipped: ${pc.skipped}`];
  const tail = (x: Spread & { maxMs: number }) => `${t(x)}, max ${fmt(x.maxMs, 0)} ms`;
  return [
    ...out,
    `${pc.saves} saves. enforcer.update() returned (one nft transaction + conntrack flush): ${tail(pc.updateMs)}`,
    `first probe reflecting it (update() + the exec of a GET by busybox nc to the peer, repeated until it sees the change): ${tail(pc.effectiveMs)}`,
    `one probe exec on a steady policy (the exec round trip inside the figure above): ${t(pc.probeMs)}; probes needed per save: at most ${pc.maxProbes}`,
  ];
}
