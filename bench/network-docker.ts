// A policy change reaching a running Docker sandbox: a busybox sandbox on its config's enforced
// bridge network, a peer HTTP server the bench creates (over its own veth), and the policy switched
// between allowing and denying the peer's subnet. Each save is timed twice from the call to
// `enforcer.update()` (what a save runs after its database write): until it returns, and until a
// probe from inside the sandbox (one exec of a GET by busybox nc) first sees the new result.
import { randomBytes } from 'node:crypto';
import { enforcementProblem, NetworkEnforcer } from '../lib/network/docker/enforcer';
import { type NetworkPolicy, OPEN_POLICY } from '../lib/network/policy/types';
import { validatePolicy } from '../lib/network/policy/validate';
import { DockerBackend } from '../lib/sandbox/docker/backend';
import { startTestDns, type TestDnsServer } from '../test/helpers/dns-server';
import { type HttpPeer, startHttpPeer } from '../test/helpers/net-peer';
import { ensureBusyboxImage } from '../test/helpers/sandbox-images';
import { nowMs, percentile } from './common';
import { engine } from './sandboxes';

const BENCH_LABEL = 'io.skilldock.bench';
/** Probes per save before giving up: the rule is expected on the first one. */
const MAX_PROBES = 50;

export interface NetworkDockerBench {
  engine: string;
  image: string;
  saves: number;
  /** call → update() resolved */
  updateMs: { p50Ms: number; p95Ms: number; maxMs: number };
  /** call → end of the first probe showing the new result (includes one exec round trip or more) */
  effectiveMs: { p50Ms: number; p95Ms: number; maxMs: number };
  /** One probe exec on a steady policy (what the second figure contains besides update()). */
  probeMs: { p50Ms: number; p95Ms: number };
  /** Probes the slowest save needed (1 = effective as soon as update() returned). */
  maxProbes: number;
}

const stats = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return { p50Ms: percentile(s, 50), p95Ms: percentile(s, 95), maxMs: s[s.length - 1] };
};

const policy = (allowOut: string[]): NetworkPolicy => {
  const r = validatePolicy('docker', { ...OPEN_POLICY, denyEgressByDefault: true, allowOut });
  if (!r.policy) throw new Error(`bench policy invalid: ${JSON.stringify(r.issues)}`);
  return r.policy;
};

export async function policyChangeBench(saves: number): Promise<NetworkDockerBench | { skipped: string }> {
  const problem = await enforcementProblem();
  if (problem) return { skipped: problem };
  const e = await engine();
  if ('skip' in e) return { skipped: e.skip };
  const tag = randomBytes(4).toString('hex');
  const labels = { [BENCH_LABEL]: `net-${tag}` };
  const configId = `bench${tag}`;
  let enforcer: NetworkEnforcer | undefined;
  let dns: TestDnsServer | undefined;
  let peer: HttpPeer | undefined;
  let backend: DockerBackend | undefined;
  let sandboxId = '';
  try {
    // The forwarder needs an upstream; this one knows no names, so no query leaves the machine.
    dns = await startTestDns({});
    enforcer = new NetworkEnforcer({
      table: `skilldock_t${randomBytes(5).toString('hex')}`,
      proxyPort: 30000 + (randomBytes(2).readUInt16BE(0) % 20000),
      dnsPort: 53,
      upstreams: [`127.0.0.1:${dns.port}`],
    });
    backend = new DockerBackend({ host: e.host, configId, network: 'bridge', enforcer });
    if (!backend.localEngine) return { skipped: `the engine at ${e.host} is not on this host, so its bridges are out of reach of the firewall` };
    const docker = backend.conn.api;
    const image = await ensureBusyboxImage(docker);
    peer = await startHttpPeer(docker, labels);
    const allowPeer = policy([peer.subnet]);
    const denyAll = policy([]);
    const sb = await backend.create({ image, labels, network: 'bridge', networkPolicy: allowPeer });
    sandboxId = sb.id;
    const url = `http://${peer.ip}/`;
    // busybox nc, not wget: the wget applet of this image segfaults.
    const get = `printf 'GET / HTTP/1.0\\r\\nHost: ${peer.ip}\\r\\n\\r\\n' | nc -w 3 ${peer.ip} 80`;
    const request = { argv: ['sh', '-c', get], timeoutMs: 10_000, maxOutputBytes: 4096 };
    const body = peer.body;
    const sandbox = backend;
    const probe = async () => {
      const r = await sandbox.exec(sandboxId, request);
      return r.exitCode === 0 && r.stdout.includes(body);
    };
    const first = await sandbox.exec(sandboxId, request);
    if (first.exitCode !== 0 || !first.stdout.includes(body))
      throw new Error(`the sandbox cannot reach the peer ${url} under a policy allowing ${peer.subnet}: ${JSON.stringify(first)}`);

    const probes: number[] = [];
    for (let i = 0; i < 10; i++) {
      const t0 = nowMs();
      await probe();
      probes.push(nowMs() - t0);
    }
    const update: number[] = [];
    const effective: number[] = [];
    let maxProbes = 0;
    for (let i = 0; i < saves; i++) {
      const reach = i % 2 === 1;
      const t0 = nowMs();
      await enforcer.update(configId, reach ? allowPeer : denyAll);
      update.push(nowMs() - t0);
      let n = 0;
      for (;;) {
        n++;
        if ((await probe()) === reach) break;
        if (n >= MAX_PROBES) throw new Error(`save ${i + 1}: ${MAX_PROBES} probes still saw the previous policy`);
      }
      effective.push(nowMs() - t0);
      maxProbes = Math.max(maxProbes, n);
    }
    const p = stats(probes);
    return {
      engine: e.host ?? 'default socket',
      image,
      saves,
      updateMs: stats(update),
      effectiveMs: stats(effective),
      probeMs: { p50Ms: p.p50Ms, p95Ms: p.p95Ms },
      maxProbes,
    };
  } finally {
    if (sandboxId) await backend?.remove(sandboxId).catch(() => undefined);
    await enforcer?.close({ removeRules: true, removeNetworks: true });
    await peer?.stop();
    await dns?.close();
    await e.stop();
  }
}
