// test-phase: pglite only. No database in it: a second phase would repeat the same engine work.
// Skilldock's own egress enforcement on a real engine: a sandbox on its config's bridge network
// probes a peer server the test created (over a veth it made), under policies changed live. The
// always-blocked ranges are checked by reading the installed rules, never by sending traffic there.
import { randomBytes } from 'node:crypto';
import Docker from 'dockerode';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { CONFIG_LABEL } from '@/lib/sandbox/config/in-use';
import { DockerBackend } from '@/lib/sandbox/docker/backend';
import { networkCheckProbes } from '@/lib/sandbox/network/check-probe';
import { localControl } from '@/lib/sandbox/network/control';
import { startTestDns, type TestDnsServer } from '@/test/helpers/dns-server';
import { describeDocker } from '@/test/helpers/docker';
import { type HttpPeer, startHttpPeer } from '@/test/helpers/net-peer';
import { ensureDebianPythonImage } from '@/test/helpers/sandbox-images';
import { compilePolicy } from '../policy/compile';
import { decideDestination } from '../policy/decide';
import { parseDestination } from '../policy/destination';
import { type Decision, type NetworkPolicy, OPEN_POLICY } from '../policy/types';
import { validatePolicy } from '../policy/validate';
import { enforcementProblem, NetworkEnforcer } from './enforcer';
import { deleteTable, readTable } from './nft';
import { baseChains, chainRules, setCovers } from './nft-json';

const PROBE = `
import sys, http.client
host, port, hdr = sys.argv[1], int(sys.argv[2]), sys.argv[3]
try:
    c = http.client.HTTPConnection(host, port, timeout=4)
    c.request('GET', '/', headers={'Host': hdr} if hdr else {})
    r = c.getresponse()
    print(r.status, r.getheader('X-Proxy-Error') or '-', r.read().decode(errors='replace').strip()[:200])
except Exception as e:
    print('ERR', type(e).__name__)
`;

const skip = process.getuid?.() !== 0 ? 'not root' : undefined;

describeDocker('Docker egress enforcement (own nft table, proxy, DNS forwarder)', () => {
  const docker = new Docker();
  const label = { 'io.skilldock.test': `net-${randomBytes(4).toString('hex')}` };
  const table = `skilldock_t${randomBytes(5).toString('hex')}`;
  const configId = `cfg${randomBytes(4).toString('hex')}`;
  const decisions: { host: string; decision: Decision }[] = [];
  let enforcer: NetworkEnforcer;
  let backend: DockerBackend;
  let dns: TestDnsServer;
  let peer: HttpPeer;
  let image = '';
  let sandboxId = '';
  let problem: string | null = skip ?? null;

  const policy = (p: Partial<NetworkPolicy>): NetworkPolicy => {
    const r = validatePolicy('docker', { ...OPEN_POLICY, ...p });
    if (!r.policy) throw new Error(`test policy invalid: ${JSON.stringify(r.issues)}`);
    return r.policy;
  };
  const probe = async (host: string, port = 80, hostHeader = '') => {
    const r = await backend.exec(sandboxId, { argv: ['python3', '-c', PROBE, host, String(port), hostHeader], timeoutMs: 20_000, maxOutputBytes: 4096 });
    return r.stdout.trim();
  };

  beforeAll(async () => {
    problem ??= await enforcementProblem();
    if (problem) return;
    image = await ensureDebianPythonImage(docker);
    peer = await startHttpPeer(docker, label);
    dns = await startTestDns({ 'allowed.test': peer.ip, 'other.test': peer.ip, 'meta.test': '169.254.169.254', 'private.test': '192.168.77.5' });
    enforcer = new NetworkEnforcer({
      table,
      proxyPort: 30000 + (randomBytes(2).readUInt16BE(0) % 20000),
      dnsPort: 53,
      upstreams: [`127.0.0.1:${dns.port}`],
      onDecision: (e) => decisions.push({ host: e.host, decision: e.decision }),
    });
    backend = new DockerBackend({ host: process.env.DOCKER_HOST, configId, network: 'bridge', enforcer });
    const sb = await backend.create({ image, labels: label, network: 'bridge', networkPolicy: policy({ denyEgressByDefault: true, allowOut: [peer.subnet] }) });
    sandboxId = sb.id;
  }, 25 * 60_000);

  afterAll(async () => {
    if (sandboxId) await backend.remove(sandboxId).catch(() => undefined);
    await enforcer?.close({ removeRules: true, removeNetworks: true });
    await peer?.stop();
    await dns?.close();
  });

  it('reaches an allowed address, and a change to the policy reaches the running sandbox at once', async (ctx) => {
    if (problem) return ctx.skip(problem);
    expect(await probe(peer.ip)).toBe(`200 - ${peer.body}`);
    await enforcer.update(configId, policy({ denyEgressByDefault: true, allowOut: [] }));
    expect(await probe(peer.ip)).toMatch(/^ERR /);
    await enforcer.update(configId, policy({ denyEgressByDefault: false, allowOut: [peer.subnet], denyOut: [`${peer.ip}/32`] }));
    // Allow beats deny: the explicit allow of the subnet wins over the deny of its address.
    expect(await probe(peer.ip)).toBe(`200 - ${peer.body}`);
    await enforcer.update(configId, policy({ denyEgressByDefault: false }));
    // Default allow still refuses a private range no allow entry names.
    expect(await probe(peer.ip)).toMatch(/^ERR /);
  });

  it('lets an allowed name through the proxy, and refuses other names, metadata and unlisted private ranges', async (ctx) => {
    if (problem) return ctx.skip(problem);
    await enforcer.update(configId, policy({ denyEgressByDefault: true, allowOut: ['allowed.test', 'meta.test', 'private.test', peer.subnet] }));
    decisions.length = 0;
    expect(await probe('allowed.test')).toBe(`200 - ${peer.body}`);
    expect(decisions.find((d) => d.host === 'allowed.test')?.decision).toMatchObject({ allowed: true, kind: 'allow-domain' });
    // The sandbox names the host; the proxy judges that name whatever address the sandbox dialled.
    expect(await probe(peer.ip, 80, 'other.test')).toMatch(/^403 blocked-by-policy/);
    expect(await probe(peer.ip, 80, 'meta.test')).toMatch(/^403 blocked-by-policy/);
    expect(decisions.find((d) => d.host === 'meta.test')?.decision).toMatchObject({ allowed: false, kind: 'always-blocked' });
    expect(await probe(peer.ip, 80, 'private.test')).toMatch(/^403 blocked-by-policy/);
    expect(decisions.find((d) => d.host === 'private.test')?.decision).toMatchObject({ allowed: false, kind: 'private' });
    // Under deny-by-default the forwarder answers only allowed names.
    dns.queries.length = 0;
    expect(await probe('other.test')).toMatch(/^ERR /);
    expect(dns.queries).not.toContain('other.test');
  });

  it('answers the tester as the rules enforce it', async (ctx) => {
    if (problem) return ctx.skip(problem);
    const tester = (p: NetworkPolicy, dest: string) => {
      const d = parseDestination(dest);
      if ('message' in d) throw new Error(d.message);
      return decideDestination(compilePolicy(p), d).allowed;
    };
    for (const p of [
      policy({ denyEgressByDefault: true, allowOut: [peer.subnet] }),
      policy({ denyEgressByDefault: true }),
      policy({ denyEgressByDefault: false, denyOut: [peer.subnet], allowOut: [] }),
      policy({ denyEgressByDefault: false, allowOut: [`${peer.ip}/32`] }),
    ]) {
      await enforcer.update(configId, p);
      const reached = (await probe(peer.ip)).startsWith('200 ');
      expect(tester(p, `${peer.ip}:80`), JSON.stringify(p)).toBe(reached);
      expect(tester(p, `http://${peer.ip}/`)).toBe(reached);
    }
    const p = policy({ denyEgressByDefault: false, allowOut: ['10.0.0.0/8'] });
    expect(tester(p, '169.254.169.254')).toBe(false);
    expect(tester(p, 'http://[::ffff:169.254.169.254]/')).toBe(false);
    // DNS goes to the sandbox's forwarder only.
    expect(tester(policy({}), '8.8.8.8:53')).toBe(false);
    expect(tester(policy({}), '8.8.8.8:443')).toBe(true);
  });

  it('after a restart, reconciling brings back the rules and listeners of the networks this owner left', async (ctx) => {
    if (problem) return ctx.skip(problem);
    const p = policy({ denyEgressByDefault: true, allowOut: ['allowed.test', peer.subnet] });
    await enforcer.update(configId, p);
    // A stopped console keeps its rules (sandboxes stay confined) but its proxy and forwarder are gone.
    await enforcer.close();
    expect(await probe('allowed.test')).toMatch(/^ERR /);
    enforcer = new NetworkEnforcer({ ...enforcer.opts });
    expect(await enforcer.reconcile(docker, async (id) => (id === configId ? p : null))).toBe(1);
    expect(await probe('allowed.test')).toBe(`200 - ${peer.body}`);
  });

  it('the full check probe: the forwarder answers, the proxy only with domain rules, a host listener is refused, and missing rules fail it', async (ctx) => {
    if (problem) return ctx.skip(problem);
    await enforcer.update(configId, policy({}));
    const [probeNet] = networkCheckProbes({ enforcer, control: localControl(enforcer), problem: null });
    const info = await backend.get(sandboxId);
    if (!info) throw new Error('the sandbox is gone');
    // The config label is what the probe finds the network by.
    const labelled = { ...info, labels: { ...info.labels, [CONFIG_LABEL]: configId } };
    expect(await probeNet.run(backend, labelled)).toMatchObject({ status: 'pass', detail: { proxyOpen: false } });
    await enforcer.update(configId, policy({ denyEgressByDefault: true, allowOut: ['allowed.test'] }));
    expect(await probeNet.run(backend, labelled)).toMatchObject({ status: 'pass', detail: { proxyOpen: true } });
    await enforcer.update(configId, policy({}));
    await deleteTable(table);
    expect(await probeNet.run(backend, labelled)).toMatchObject({ status: 'fail', reason: expect.stringMatching(/rules are not in place/) });
    await enforcer.update(configId, policy({}));
    expect(await probeNet.run(backend, labelled)).toMatchObject({ status: 'pass' });
  });

  it('installs the always-blocked sets and hooks every chain on the bridge; removing the network removes its rules', async (ctx) => {
    if (problem) return ctx.skip(problem);
    const [net] = enforcer.networks();
    const json = await readTable(table);
    for (const cidr of ['169.254.169.254/32', '169.254.0.0/16', '100.100.100.200/32', '168.63.129.16/32', '127.0.0.0/8', '224.0.0.0/4']) {
      expect(setCovers(json, 'hard4', cidr), cidr).toBe(true);
    }
    for (const cidr of ['fe80::/10', 'fd00:ec2::254/128', '::1/128', '::ffff:0:0/96']) expect(setCovers(json, 'hard6', cidr), cidr).toBe(true);
    expect(setCovers(json, 'hard4', '8.8.8.8/32')).toBe(false);
    expect(Object.keys(baseChains(json)).sort()).toEqual(['sbx_forward', 'sbx_input', 'sbx_pre']);
    expect(chainRules(json, 'sbx_forward').join('\n')).toContain(net.bridge);
    expect(chainRules(json, 'sbx_input').join('\n')).toContain(net.bridge);
    await backend.remove(sandboxId);
    sandboxId = '';
    await enforcer.detach(docker, configId);
    const after = await readTable(table);
    expect(JSON.stringify(after)).not.toContain(net.bridge);
    await expect(docker.getNetwork(net.name).inspect()).rejects.toMatchObject({ statusCode: 404 });
  });
});
