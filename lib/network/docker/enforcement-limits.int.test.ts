// test-phase: pglite only. No database in it: a second phase would repeat the same engine work.
// The egress proxy's limits on a real engine, from inside a sandbox on its enforced network: the
// proxy port is closed without domain rules (read back from the installed table too), the proxy
// never dials the host's own addresses or another Docker network, a tightened policy ends open
// tunnels, and per-address caps and the idle timeout hold. Traffic goes only to the gateway (the
// proxy), to a peer container over a veth the test made, and to a listener the test opens; refused
// destinations are never dialled.
import { randomBytes } from 'node:crypto';
import net from 'node:net';
import Docker from 'dockerode';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { DockerBackend } from '@/lib/sandbox/docker/backend';
import { describeDocker } from '@/test/helpers/docker';
import { type HttpPeer, startHttpPeer } from '@/test/helpers/net-peer';
import { ensureDebianPythonImage } from '@/test/helpers/sandbox-images';
import { type NetworkPolicy, OPEN_POLICY } from '../policy/types';
import { validatePolicy } from '../policy/validate';
import { enforcementProblem, NetworkEnforcer } from './enforcer';
import { readTable } from './nft';
import { chainRules } from './nft-json';

// Opens n CONNECT tunnels through the proxy and prints each answer's status; then, with hold > 0,
// waits on the first tunnel and prints whether it was closed under it or stayed open.
const TUNNELS = `
import socket, sys, time
gw, port, target, n, hold = sys.argv[1], int(sys.argv[2]), sys.argv[3], int(sys.argv[4]), float(sys.argv[5])
socks, out = [], []
for i in range(n):
    try:
        s = socket.create_connection((gw, port), 4)
        s.sendall(('CONNECT %s HTTP/1.1\\r\\nHost: %s\\r\\n\\r\\n' % (target, target)).encode())
        head = b''
        while b'\\r\\n\\r\\n' not in head:
            c = s.recv(4096)
            if not c: break
            head += c
        out.append(head.split(b' ')[1].decode() if head.startswith(b'HTTP/') else 'EOF')
        socks.append(s)
    except Exception as e:
        out.append('ERR:' + type(e).__name__)
print(' '.join(out), flush=True)
if hold > 0 and socks:
    s = socks[0]; s.settimeout(hold); t = time.time()
    try:
        d = s.recv(1)
        print('closed' if d == b'' else 'data', round(time.time() - t, 1), flush=True)
    except socket.timeout:
        print('open', flush=True)
    except Exception as e:
        print('closed', round(time.time() - t, 1), type(e).__name__, flush=True)
`;

const skip = process.getuid?.() !== 0 ? 'not root' : undefined;
const IDLE_MS = 4000;

describeDocker('egress proxy limits on a real engine', () => {
  const docker = new Docker();
  const label = { 'io.skilldock.test': `netlim-${randomBytes(4).toString('hex')}` };
  const table = `skilldock_t${randomBytes(5).toString('hex')}`;
  const configId = `cfg${randomBytes(4).toString('hex')}`;
  let enforcer: NetworkEnforcer;
  let backend: DockerBackend;
  let peer: HttpPeer;
  let other: Docker.Network | undefined;
  let otherSubnet = '';
  let sandboxId = '';
  let problem: string | null = skip ?? null;

  const policy = (p: Partial<NetworkPolicy>): NetworkPolicy => {
    const r = validatePolicy('docker', { ...OPEN_POLICY, ...p });
    if (!r.policy) throw new Error(`test policy invalid: ${JSON.stringify(r.issues)}`);
    return r.policy;
  };
  const gateway = () => enforcer.networks()[0].gateway4;
  const tunnels = async (target: string, n = 1, holdS = 0) => {
    const r = await backend.exec(sandboxId, {
      argv: ['python3', '-c', TUNNELS, gateway(), String(enforcer.opts.proxyPort), target, String(n), String(holdS)],
      timeoutMs: 60_000,
      maxOutputBytes: 4096,
    });
    return r.stdout.trim().split('\n');
  };
  const inputRules = async () => chainRules(await readTable(table), `i_${enforcer.networks()[0].key}`);
  // The named policy: web traffic goes through the proxy, the peer's /30 and the other network allowed.
  const named = () => policy({ denyEgressByDefault: true, allowOut: ['allowed.test', peer.subnet, otherSubnet] });

  beforeAll(async () => {
    problem ??= await enforcementProblem();
    if (problem) return;
    const image = await ensureDebianPythonImage(docker);
    peer = await startHttpPeer(docker, label);
    other = await docker.createNetwork({ Name: `skilldock-test-other-${randomBytes(4).toString('hex')}`, Driver: 'bridge', Labels: label });
    otherSubnet = ((await other.inspect()) as Docker.NetworkInspectInfo).IPAM?.Config?.[0]?.Subnet ?? '';
    enforcer = new NetworkEnforcer({
      table,
      proxyPort: 30000 + (randomBytes(2).readUInt16BE(0) % 20000),
      dnsPort: 53,
      upstreams: ['127.0.0.1:9'],
      limits: { proxyPerClient: 3, tunnelIdleMs: IDLE_MS },
    });
    backend = new DockerBackend({ host: process.env.DOCKER_HOST, configId, network: 'bridge', enforcer });
    const sb = await backend.create({ image, labels: label, network: 'bridge', networkPolicy: policy({}) });
    sandboxId = sb.id;
  }, 25 * 60_000);

  afterAll(async () => {
    if (sandboxId) await backend.remove(sandboxId).catch(() => undefined);
    await enforcer?.close({ removeRules: true, removeNetworks: true });
    await peer?.stop();
    await other?.remove().catch(() => undefined);
  });

  it('keeps the proxy port closed while the policy has no domain rules, in the installed table and from inside', async (ctx) => {
    if (problem) return ctx.skip(problem);
    await enforcer.update(configId, policy({ allowOut: [peer.subnet] }));
    const port = String(enforcer.opts.proxyPort);
    expect((await inputRules()).filter((r) => r.includes(port))).toEqual([]);
    expect(await tunnels(`${peer.ip}:80`)).toEqual(['ERR:ConnectionRefusedError']);
    await enforcer.update(configId, named());
    expect((await inputRules()).some((r) => r.includes('tcp dport') && r.includes(port))).toBe(true);
    expect(await tunnels(`${peer.ip}:80`)).toEqual(['200']);
  });

  it("refuses a CONNECT to the host's own address or to another Docker network, even when allowOut covers it", async (ctx) => {
    if (problem) return ctx.skip(problem);
    await enforcer.update(configId, named());
    // A listener on the host side of the peer's veth: an address of the host itself, inside an allowed /30.
    const hostIp = peer.ip.replace(/\.(\d+)$/, (_, last) => `.${Number(last) - 1}`);
    let reached = 0;
    const listener = net.createServer((s) => {
      reached++;
      s.destroy();
    });
    await new Promise<void>((r) => listener.listen(0, hostIp, () => r()));
    try {
      const port = (listener.address() as net.AddressInfo).port;
      const otherIp = otherSubnet.replace(/\.0\/\d+$/, '.9');
      expect(await tunnels(`${hostIp}:${port}`)).toEqual(['403']);
      expect(await tunnels(`${otherIp}:80`)).toEqual(['403']);
      expect(await tunnels(`${gateway()}:${enforcer.opts.dnsPort}`)).toEqual(['403']);
      expect(reached).toBe(0);
      expect(await tunnels(`${peer.ip}:80`)).toEqual(['200']);
      expect(await enforcer.guard.check([hostIp])).toMatchObject({ kind: 'host' });
      expect(await enforcer.guard.check([otherIp])).toMatchObject({ kind: 'other-network', entry: otherSubnet });
    } finally {
      await new Promise((r) => listener.close(r));
    }
  });

  it('ends an open tunnel when the policy no longer allows its destination', async (ctx) => {
    if (problem) return ctx.skip(problem);
    await enforcer.update(configId, named());
    const ended = enforcer.proxyState(configId)?.stats.ended ?? 0;
    const out = tunnels(`${peer.ip}:80`, 1, 30);
    for (let i = 0; i < 400 && (enforcer.proxyState(configId)?.tunnels.length ?? 0) === 0; i++) await new Promise((r) => setTimeout(r, 25));
    expect(enforcer.proxyState(configId)?.tunnels).toMatchObject([{ host: peer.ip, port: 80, ip: peer.ip }]);
    await enforcer.update(configId, policy({ denyEgressByDefault: true, allowOut: ['allowed.test'] }));
    const [status, end] = await out;
    expect(status).toBe('200');
    expect(end).toMatch(/^closed /);
    expect(enforcer.proxyState(configId)?.stats.ended).toBe(ended + 1);
  });

  it('caps the tunnels of one sandbox address (429 past the cap) and closes an idle tunnel', async (ctx) => {
    if (problem) return ctx.skip(problem);
    await enforcer.update(configId, named());
    const limited = enforcer.proxyState(configId)?.stats.limited ?? 0;
    expect(await tunnels(`${peer.ip}:80`, 4)).toEqual(['200 200 200 429']);
    expect(enforcer.proxyState(configId)?.stats.limited).toBe(limited + 1);
    const [status, end] = await tunnels(`${peer.ip}:80`, 1, 30);
    expect(status).toBe('200');
    const after = Number(end.split(' ')[1]);
    expect(end.startsWith('closed ')).toBe(true);
    expect(after).toBeGreaterThanOrEqual(IDLE_MS / 1000 - 0.5);
    expect(after).toBeLessThan(IDLE_MS / 1000 + 5);
  });

  it('denies every other destination of both families with ::/0 or 0.0.0.0/0 in denyOut, read back from the table', async (ctx) => {
    if (problem) return ctx.skip(problem);
    const key = enforcer.networks()[0].key;
    for (const all of ['::/0', '0.0.0.0/0']) {
      await enforcer.update(configId, policy({ allowOut: [peer.subnet], denyOut: [all] }));
      const rules = chainRules(await readTable(table), `n_${key}`);
      expect(rules.at(-1), all).toBe('goto sbx_reject');
      expect(rules, all).not.toContain('return');
    }
    await enforcer.update(configId, policy({ allowOut: [peer.subnet] }));
    expect(chainRules(await readTable(table), `n_${key}`).at(-1)).toBe('return');
  });
});
