// Keeps the loopback E2B server honest: the official `e2b` SDK runs against it (create, a command,
// a file round trip, a listing, kill), and what the SDK does must work the way our client expects.
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { promisify } from 'node:util';
import Docker from 'dockerode';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type NetworkPolicy, OPEN_POLICY } from '@/lib/network/policy/types';
import { describeDocker } from '@/test/helpers/docker';
import { type E2bServer, serverContainers, startE2bServer } from '@/test/helpers/e2b-server';
import { E2bBackend } from './backend';
import { DENY_ALL_OUT, FIXED_DENY_OUT } from './network-wire';

const CHILD = path.resolve(__dirname, '../../../test/helpers/e2b-sdk-child.mjs');
const NETWORK_CHILD = path.resolve(__dirname, '../../../test/helpers/e2b-sdk-network-child.mjs');

/** Runs a child script with the test CA and without the machine's E2B_* variables steering the SDK. */
async function runChild(srv: E2bServer, script: string, args: Record<string, unknown>): Promise<Record<string, unknown>> {
  const env = Object.fromEntries(
    Object.entries({ ...process.env, NODE_EXTRA_CA_CERTS: srv.caFile }).filter(([k]) => !k.startsWith('E2B_')),
  ) as NodeJS.ProcessEnv;
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [script, JSON.stringify({ apiKey: srv.apiKey, domain: srv.baseDomain, proxy: srv.proxyUrl, ...args })],
    { env, timeout: 120_000 },
  );
  return JSON.parse(stdout.trim().split('\n').pop() ?? '{}');
}

describeDocker('the official e2b SDK against the loopback E2B server', () => {
  const docker = new Docker();
  let srv: E2bServer;

  beforeAll(async () => {
    srv = await startE2bServer({ docker, flavor: 'e2b', strictUser: false });
  });
  afterAll(async () => {
    await srv?.close();
    expect(await serverContainers(docker, srv)).toEqual([]);
  });

  it('creates, runs a command, writes and reads a file, lists and kills', async () => {
    const suite = randomBytes(4).toString('hex');
    const content = `note ${randomBytes(8).toString('hex')}\n`;
    const out = await runChild(srv, CHILD, { suite, content });
    expect(out.run).toEqual({ exitCode: 0, stdout: 'hello sdk\n', stderr: 'oops\n' });
    expect(out.exit).toBe(7);
    expect(out.user).toBe('user');
    expect(out.read).toBe(content);
    expect(out.list).toEqual([{ name: 'note.txt', type: 'file' }]);
    expect(out.listed).toEqual([out.sandboxId]);
    expect(out.running).toBe(true);
    expect(out.afterKill).toEqual([]);
    expect(srv.sandboxes.size).toBe(0);

    // It went where a real E2B deployment would see it: TLS, the API host, and envd by sandbox host.
    const mine = srv.seen.filter((q) => q.via === 'https');
    expect(mine.some((q) => q.plane === 'control' && q.host.startsWith(`api.${srv.baseDomain}`) && q.method === 'POST' && q.path.endsWith('/sandboxes'))).toBe(
      true,
    );
    const envd = mine.filter((q) => q.plane === 'envd');
    expect(envd.map((q) => q.path)).toEqual(expect.arrayContaining(['/process.Process/Start', '/files', '/filesystem.Filesystem/ListDir']));
    for (const q of envd) expect(q.host.startsWith(`49983-${out.sandboxId}.${srv.baseDomain}`)).toBe(true);
  });

  it('reads the SDK’s network options (create and live update) as it reads ours', async () => {
    const policy: NetworkPolicy = {
      ...OPEN_POLICY,
      denyEgressByDefault: true,
      allowOut: ['api.example.com', '*.pypi.org', '192.0.2.10/32'],
      denyOut: ['198.51.100.0/24'],
      e2bHostRules: [{ host: 'api.example.com', headers: { Authorization: '***' } }],
    };
    const later: NetworkPolicy = { ...OPEN_POLICY, allowOut: ['10.1.0.0/16'], denyOut: ['203.0.113.0/24'] };
    const sdk = await runChild(srv, NETWORK_CHILD, {
      create: {
        allowInternetAccess: false,
        network: {
          allowOut: policy.allowOut,
          denyOut: [...DENY_ALL_OUT, ...FIXED_DENY_OUT, ...policy.denyOut],
          rules: { 'api.example.com': [{ transform: { headers: { Authorization: 'Bearer tok' } } }] },
        },
      },
      update: { allowInternetAccess: true, allowOut: later.allowOut, denyOut: [...FIXED_DENY_OUT, ...later.denyOut] },
    });
    const b = new E2bBackend(
      'e2b',
      { apiUrl: srv.apiUrl, apiKey: srv.apiKey, domain: srv.baseDomain, proxyUrl: srv.proxyUrl, template: 'base' },
      { lookup: srv.lookup },
    );
    try {
      const ours = await b.create({ image: 'base', networkPolicy: policy, networkSecrets: { 'e2b:api.example.com:Authorization': 'Bearer tok' } });
      expect(await b.applyNetworkPolicy(ours.id, later)).toBe('updated');
      await b.remove(ours.id);
      const log = (id: unknown) => srv.networkLog.filter((r) => r.sandboxId === id).map(({ sandboxId, ...r }) => r);
      expect(log(sdk.sandboxId)).toHaveLength(2);
      expect(log(ours.id)).toEqual(log(sdk.sandboxId));
    } finally {
      await b.close();
    }
  });
});
