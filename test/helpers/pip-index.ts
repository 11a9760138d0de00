// A PEP 503 simple index for sandbox install tests, and the Debian python3 image with pip.
// - startPipIndex: the busybox HTTP peer of net-peer.ts (reached over a veth pair the test creates)
//   serving /simple/<project>/ pages that link the wheels under /packages/ with their sha256.
// - ensurePipImage: the offline Debian python3 image plus Debian's own pip (the host's python3-pip-whl
//   wheel, unpacked into dist-packages), with no pip configuration of its own: whatever makes pip
//   accept the plain-HTTP index must come from the install's command line. Built FROM the local
//   image, so nothing is pulled.
//
//   const index = await startPipIndex(docker, [wheelPath], labels);   // index.url = http://10.213.x.2/simple/
//   const image = await ensurePipImage(docker);                        // remove with removePipImage
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import type Docker from 'dockerode';
import { buildTar, type TarEntry } from '@/lib/sandbox/docker/tar';
import { type HttpPeer, startHttpPeer } from './net-peer';
import { ensureDebianPythonImage } from './sandbox-images';

export interface PipIndex {
  /** `http://<ip>/simple/`, for the runtime settings' pipIndexUrl. */
  url: string;
  ip: string;
  /** The /30 a config's network policy must allow. */
  subnet: string;
  stop(): Promise<void>;
}

/** PEP 503 normalisation: `Skd_Demo.x` → `skd-demo-x`. */
export function normalizeProject(name: string): string {
  return name.toLowerCase().replace(/[-_.]+/g, '-');
}

/** The project name of a wheel file (`skd_demo-1.0.0-py3-none-any.whl` → `skd-demo`). */
function projectOf(file: string): string {
  return normalizeProject(path.basename(file).split('-')[0]);
}

/** The index tree: one page per project, a root page listing them, the wheels beside. */
export function simpleIndexTree(wheels: string[]): TarEntry[] {
  const byProject = new Map<string, string[]>();
  for (const w of wheels) byProject.set(projectOf(w), [...(byProject.get(projectOf(w)) ?? []), w]);
  const page = (links: string[]) => `<!DOCTYPE html>\n<html><body>\n${links.join('\n')}\n</body></html>\n`;
  const entries: TarEntry[] = [
    { type: 'dir', name: 'www' },
    { type: 'dir', name: 'www/simple' },
    { type: 'dir', name: 'www/packages' },
    { type: 'file', name: 'www/simple/index.html', data: Buffer.from(page([...byProject.keys()].map((p) => `<a href="${p}/">${p}</a>`))) },
  ];
  for (const [project, files] of byProject) {
    const links = files.map((f) => {
      const data = fs.readFileSync(f);
      const sha = createHash('sha256').update(data).digest('hex');
      const name = path.basename(f);
      entries.push({ type: 'file', name: `www/packages/${name}`, data });
      return `<a href="../../packages/${name}#sha256=${sha}">${name}</a>`;
    });
    entries.push({ type: 'dir', name: `www/simple/${project}` }, { type: 'file', name: `www/simple/${project}/index.html`, data: Buffer.from(page(links)) });
  }
  return entries;
}

/** Starts the index peer with `wheels` published; `labels` mark its container for cleanup. */
export async function startPipIndex(docker: Docker, wheels: string[], labels: Record<string, string>): Promise<PipIndex> {
  const mark = { ...labels, 'io.skilldock.test.pip-index': randomBytes(6).toString('hex') };
  const peer: HttpPeer = await startHttpPeer(docker, mark);
  try {
    const [c] = await docker.listContainers({ filters: { label: [`io.skilldock.test.pip-index=${mark['io.skilldock.test.pip-index']}`] } });
    if (!c) throw new Error('the pip index container is not running');
    // The peer's httpd serves /www as it is on each request, so the tree can arrive after the start.
    await docker.getContainer(c.Id).putArchive(buildTar(simpleIndexTree(wheels)), { path: '/' });
    return { url: `http://${peer.ip}/simple/`, ip: peer.ip, subnet: peer.subnet, stop: () => peer.stop() };
  } catch (e) {
    await peer.stop();
    throw e;
  }
}

const PIP_WHEEL_DIR = '/usr/share/python-wheels';

/** Debian's pip wheel on this host (package python3-pip-whl), the same pip bookworm ships. */
export function debianPipWheel(): string {
  const found = fs.existsSync(PIP_WHEEL_DIR) ? fs.readdirSync(PIP_WHEEL_DIR).filter((f) => /^pip-[\d.]+-py3-none-any\.whl$/.test(f)) : [];
  if (!found.length) throw new Error(`no pip wheel in ${PIP_WHEEL_DIR}: install the Debian package python3-pip-whl`);
  return path.join(PIP_WHEEL_DIR, found.sort().at(-1) as string);
}

/** Builds `skilldock-test/debian-python3-pip:<random>`; returns its ref. */
export async function ensurePipImage(docker: Docker): Promise<string> {
  const base = await ensureDebianPythonImage(docker);
  const ref = `skilldock-test/debian-python3-pip:${randomBytes(5).toString('hex')}`;
  const dockerfile = [
    `FROM ${base}`,
    'COPY pip.whl /tmp/pip.whl',
    'RUN python3 -m zipfile -e /tmp/pip.whl /usr/lib/python3/dist-packages && rm -f /tmp/pip.whl',
    '',
  ].join('\n');
  const context = buildTar([
    { type: 'file', name: 'Dockerfile', data: Buffer.from(dockerfile) },
    { type: 'file', name: 'pip.whl', data: fs.readFileSync(debianPipWheel()) },
  ]);
  const stream = await docker.buildImage(Readable.from([context]), {
    t: ref,
    rm: true,
    forcerm: true,
    pull: false,
    labels: { 'io.skilldock.test': 'pip-image' },
  });
  const out = await new Promise<{ error?: string; stream?: string }[]>((resolve, reject) =>
    docker.modem.followProgress(stream, (err, res) => (err ? reject(err) : resolve(res))),
  );
  const failed = out.find((o) => o.error);
  if (failed) throw new Error(`building ${ref} failed: ${failed.error}\n${out.map((o) => o.stream ?? '').join('')}`);
  await docker.getImage(ref).inspect();
  return ref;
}

/** Removes an image ensurePipImage built (and nothing else: the ref must be one of its names). */
export async function removePipImage(docker: Docker, ref: string): Promise<void> {
  if (!ref.startsWith('skilldock-test/debian-python3-pip:')) throw new Error(`not a pip test image: ${ref}`);
  await docker
    .getImage(ref)
    .remove({ force: true })
    .catch((e: { statusCode?: number }) => {
      if (e.statusCode !== 404) throw e;
    });
}
