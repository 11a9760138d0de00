// Keeps the loopback E2B server honest: the official `e2b` SDK runs against it (create, a command,
// a file round trip, a listing, kill), and what the SDK does must work the way our client expects.
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { promisify } from 'node:util';
import Docker from 'dockerode';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeDocker } from '@/test/helpers/docker';
import { E2B_SERVER_LABEL, type E2bServer, startE2bServer } from '@/test/helpers/e2b-server';

const CHILD = path.resolve(__dirname, '../../../test/helpers/e2b-sdk-child.mjs');

describeDocker('the official e2b SDK against the loopback E2B server', () => {
  const docker = new Docker();
  let srv: E2bServer;

  beforeAll(async () => {
    srv = await startE2bServer({ docker, flavor: 'e2b', strictUser: false });
  });
  afterAll(async () => {
    await srv?.close();
    expect(await docker.listContainers({ all: true, filters: { label: [E2B_SERVER_LABEL] } })).toEqual([]);
  });

  it('creates, runs a command, writes and reads a file, lists and kills', async () => {
    const suite = randomBytes(4).toString('hex');
    const content = `note ${randomBytes(8).toString('hex')}\n`;
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [CHILD, JSON.stringify({ apiKey: srv.apiKey, domain: srv.baseDomain, proxy: srv.proxyUrl, suite, content })],
      // The test CA is added; E2B_* variables of the machine must not steer the SDK.
      {
        env: {
          ...process.env,
          ...Object.fromEntries(
            Object.keys(process.env)
              .filter((k) => k.startsWith('E2B_'))
              .map((k) => [k, undefined]),
          ),
          NODE_EXTRA_CA_CERTS: srv.caFile,
        },
        timeout: 120_000,
      },
    );
    const out = JSON.parse(stdout.trim().split('\n').pop() ?? '{}');
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
});
