// Sandbox test images built offline and imported into the engine; nothing is pulled from a registry.
// - busybox: a root filesystem from the host's Debian `busybox-static` (one static binary plus a
//   symlink per applet).
// - Debian with python3: a minbase rootfs mmdebstrap builds from Debian's archive, cached as a tar
//   outside the repository (SKILLDOCK_TEST_IMAGE_CACHE, default /var/cache/skilldock-test-images)
//   keyed by release and package list, so a machine builds it once.
//
//   const image = await ensureBusyboxImage(docker);        // 'skilldock-test/busybox:1', built once per engine
//   const py = await ensureDebianPythonImage(docker);      // 'skilldock-test/debian-python3:bookworm-<key>'
import { execFileSync, spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import type Docker from 'dockerode';
import { buildTar, type TarEntry } from '@/lib/sandbox/docker/tar';

export const BUSYBOX_IMAGE = 'skilldock-test/busybox:1';
const BUSYBOX_BIN = '/bin/busybox';

const building = new Map<Docker, Promise<string>>();

async function hasImage(docker: Docker, ref: string): Promise<boolean> {
  try {
    await docker.getImage(ref).inspect();
    return true;
  } catch (e) {
    if ((e as { statusCode?: number }).statusCode === 404) return false;
    throw e;
  }
}

/** The busybox root filesystem as an uncompressed tar. */
export function busyboxRootfs(): Buffer {
  if (!fs.existsSync(BUSYBOX_BIN)) {
    throw new Error(`${BUSYBOX_BIN} is missing: install the Debian package busybox-static (npm test installs it when run as root)`);
  }
  const applets = execFileSync(BUSYBOX_BIN, ['--list'], { encoding: 'utf8' })
    .split('\n')
    .filter((a) => /^[a-z0-9_.[-]+$/i.test(a) && a !== 'busybox');
  const entries: TarEntry[] = [
    { type: 'dir', name: 'bin' },
    { type: 'file', name: 'bin/busybox', data: fs.readFileSync(BUSYBOX_BIN), mode: 0o755 },
    ...applets.map((a): TarEntry => ({ type: 'symlink', name: `bin/${a}`, target: 'busybox' })),
    { type: 'symlink', name: 'sbin', target: 'bin' },
    { type: 'dir', name: 'usr' },
    { type: 'symlink', name: 'usr/bin', target: '../bin' },
    { type: 'symlink', name: 'usr/sbin', target: '../bin' },
    { type: 'dir', name: 'etc' },
    { type: 'file', name: 'etc/passwd', data: Buffer.from('root:x:0:0:root:/root:/bin/sh\nnobody:x:65534:65534:nobody:/nonexistent:/bin/false\n') },
    { type: 'file', name: 'etc/group', data: Buffer.from('root:x:0:\nnogroup:x:65534:\n') },
    { type: 'dir', name: 'root', mode: 0o700 },
    { type: 'dir', name: 'tmp', mode: 0o1777 },
    { type: 'dir', name: 'proc' },
    { type: 'dir', name: 'sys' },
    { type: 'dir', name: 'dev' },
  ];
  return buildTar(entries);
}

/** Imports a root filesystem tar as `ref` (`repo:tag`, replacing that tag); `changes` are Dockerfile lines (ENTRYPOINT, ENV…). */
export async function importRootfsImage(docker: Docker, ref: string, tar: Buffer | Readable, changes: string[] = []): Promise<string> {
  const [repo, tag] = ref.split(':');
  const options: Record<string, unknown> = { repo, tag, changes: ['ENV PATH=/bin', 'CMD ["/bin/sh"]', ...changes] };
  const stream = await docker.importImage(Buffer.isBuffer(tar) ? Readable.from([tar]) : tar, options);
  const progress = await new Promise<{ error?: string }[]>((resolve, reject) =>
    docker.modem.followProgress(stream, (err, out) => (err ? reject(err) : resolve(out))),
  );
  const failed = progress.find((p) => p.error);
  if (failed) throw new Error(`docker import ${ref} failed: ${failed.error}`);
  return ref;
}

/** The busybox test image's reference, imported on first use and reused (by tag) afterwards. */
export function ensureBusyboxImage(docker: Docker, ref = BUSYBOX_IMAGE): Promise<string> {
  let p = building.get(docker);
  if (!p) {
    p = (async () => {
      if (!(await hasImage(docker, ref))) await importRootfsImage(docker, ref, busyboxRootfs());
      if (!(await hasImage(docker, ref))) throw new Error(`docker import ${ref} did not leave the image`);
      return ref;
    })();
    p.catch(() => building.delete(docker));
    building.set(docker, p);
  }
  return p;
}

export const DEBIAN_RELEASE = 'bookworm';
export const DEBIAN_PACKAGES = ['python3'];
const DEBIAN_BUILD_LIMIT_MS = 20 * 60_000;
const debianBuilding = new Map<Docker, Promise<string>>();

export function imageCacheDir(): string {
  return process.env.SKILLDOCK_TEST_IMAGE_CACHE || '/var/cache/skilldock-test-images';
}

function debianKey(): string {
  return createHash('sha256')
    .update(JSON.stringify({ release: DEBIAN_RELEASE, variant: 'minbase', packages: DEBIAN_PACKAGES }))
    .digest('hex')
    .slice(0, 12);
}

export const debianPythonImage = () => `skilldock-test/debian-python3:${DEBIAN_RELEASE}-${debianKey()}`;

function mmdebstrap(out: string): Promise<void> {
  const args = ['--variant=minbase', `--include=${DEBIAN_PACKAGES.join(',')}`, '--format=tar', '--quiet', DEBIAN_RELEASE, out];
  return new Promise((resolve, reject) => {
    const child = spawn('mmdebstrap', args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr = (stderr + c.toString()).slice(-4000)));
    const timer = setTimeout(() => child.kill('SIGKILL'), DEBIAN_BUILD_LIMIT_MS);
    child.on('error', (e) =>
      reject(new Error(`mmdebstrap could not start (${e.message}): install the Debian package mmdebstrap (npm test installs it when run as root)`)),
    );
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve();
      else reject(new Error(`mmdebstrap ${args.join(' ')} failed (${signal ?? code}):\n${stderr}`));
    });
  });
}

/**
 * The cached rootfs tar of the Debian python3 image, built with mmdebstrap when absent. Processes
 * building at the same time wait on one lock directory, so a machine builds it once.
 */
export async function debianPythonRootfs(): Promise<string> {
  const dir = imageCacheDir();
  fs.mkdirSync(dir, { recursive: true });
  const tar = path.join(dir, `debian-${DEBIAN_RELEASE}-minbase-${debianKey()}.tar`);
  const lock = `${tar}.lock`;
  const deadline = Date.now() + DEBIAN_BUILD_LIMIT_MS;
  for (;;) {
    if (fs.existsSync(tar)) return tar;
    try {
      fs.mkdirSync(lock);
      break;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      // A lock older than the build limit belongs to a build that died.
      const held = fs.statSync(lock, { throwIfNoEntry: false });
      if (held && Date.now() - held.mtimeMs > DEBIAN_BUILD_LIMIT_MS) fs.rmSync(lock, { recursive: true, force: true });
      if (Date.now() > deadline) throw new Error(`another process has been building ${tar} for too long (lock ${lock})`);
      await new Promise((r) => setTimeout(r, 2000));
    }
  }
  try {
    if (fs.existsSync(tar)) return tar;
    const partial = path.join(dir, `.${path.basename(tar)}.${randomBytes(4).toString('hex')}.tmp`);
    try {
      await mmdebstrap(partial);
      fs.renameSync(partial, tar);
    } finally {
      fs.rmSync(partial, { force: true });
    }
    return tar;
  } finally {
    fs.rmSync(lock, { recursive: true, force: true });
  }
}

/** The Debian python3 test image's reference, built (or taken from the cache) and imported on first use. */
export function ensureDebianPythonImage(docker: Docker, ref = debianPythonImage()): Promise<string> {
  let p = debianBuilding.get(docker);
  if (!p) {
    p = (async () => {
      if (!(await hasImage(docker, ref))) {
        const tar = await debianPythonRootfs();
        await importRootfsImage(docker, ref, fs.createReadStream(tar), [
          'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin',
          'ENV LANG=C.UTF-8',
          'CMD ["/bin/bash"]',
        ]);
      }
      if (!(await hasImage(docker, ref))) throw new Error(`docker import ${ref} did not leave the image`);
      return ref;
    })();
    p.catch(() => debianBuilding.delete(docker));
    debianBuilding.set(docker, p);
  }
  return p;
}
