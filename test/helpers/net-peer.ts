// A peer for network-rule tests: a busybox HTTP server container with no Docker network, reached
// over a veth pair the test creates (host side 10.213.N.1, container side 10.213.N.2, a /30). Its
// traffic crosses the host's forwarding path like any outside destination, but stays on this machine.
import { execFile } from 'node:child_process';
import { randomBytes, randomInt } from 'node:crypto';
import { promisify } from 'node:util';
import type Docker from 'dockerode';
import { ensureBusyboxImage } from './sandbox-images';

const run = promisify(execFile);

export interface HttpPeer {
  /** The server's address (container side of the veth). */
  ip: string;
  /** The /30 the veth pair uses. */
  subnet: string;
  body: string;
  stop(): Promise<void>;
}

async function freeSubnet(): Promise<number> {
  const { stdout } = await run('ip', ['-4', 'route', 'show']);
  for (let i = 0; i < 50; i++) {
    const n = randomInt(0, 64) * 4;
    const third = randomInt(0, 256);
    if (!stdout.includes(`10.213.${third}.`)) return third * 256 + n;
  }
  throw new Error('no free 10.213.x.y/30 for the test peer');
}

export async function startHttpPeer(docker: Docker, labels: Record<string, string>): Promise<HttpPeer> {
  const image = await ensureBusyboxImage(docker);
  const body = `peer-${randomBytes(6).toString('hex')}`;
  const c = await docker.createContainer({
    Image: image,
    Entrypoint: ['/bin/sh', '-c', `mkdir -p /www && echo ${body} > /www/index.html && exec httpd -f -p 80 -h /www`],
    Labels: labels,
    HostConfig: { NetworkMode: 'none', AutoRemove: false },
  });
  const tag = randomBytes(4).toString('hex');
  const hostIf = `skdh${tag}`;
  const peerIf = `skdc${tag}`;
  let linked = false;
  try {
    await c.start();
    const pid = String((await c.inspect()).State.Pid);
    const n = await freeSubnet();
    const base = `10.213.${Math.floor(n / 256)}.`;
    const last = n % 256;
    const [hostIp, peerIp] = [`${base}${last + 1}`, `${base}${last + 2}`];
    await run('ip', ['link', 'add', hostIf, 'type', 'veth', 'peer', 'name', peerIf]);
    linked = true;
    await run('ip', ['link', 'set', peerIf, 'netns', pid]);
    await run('ip', ['addr', 'add', `${hostIp}/30`, 'dev', hostIf]);
    await run('ip', ['link', 'set', hostIf, 'up']);
    await run('nsenter', ['-t', pid, '-n', 'ip', 'addr', 'add', `${peerIp}/30`, 'dev', peerIf]);
    await run('nsenter', ['-t', pid, '-n', 'ip', 'link', 'set', peerIf, 'up']);
    await run('nsenter', ['-t', pid, '-n', 'ip', 'route', 'add', 'default', 'via', hostIp]);
    return {
      ip: peerIp,
      subnet: `${base}${last}/30`,
      body,
      async stop() {
        await run('ip', ['link', 'del', hostIf]).catch(() => undefined);
        await c.remove({ force: true }).catch(() => undefined);
      },
    };
  } catch (e) {
    if (linked) await run('ip', ['link', 'del', hostIf]).catch(() => undefined);
    await c.remove({ force: true }).catch(() => undefined);
    throw e;
  }
}
