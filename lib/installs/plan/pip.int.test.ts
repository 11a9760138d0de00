// test-phase: pglite only. What it proves happens in the engine or the package manager; its
// database writes are the job and store operations other files run on both engines.
// A real skill that needs a Python package, installed on a real engine: the wheel comes from a PEP 503
// index the test serves on a network it created, the config's policy allows only that network, and
// the skill's script runs in a sandbox started from the snapshot. The image carries no pip
// configuration, so pip accepts the plain-http index only through the install's own --trusted-host.
// An image without pip fails the install at the plan, naming pip, with nothing built.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { enqueue, readJobLogs } from '@/lib/jobs/queue';
import type { JobRow } from '@/lib/jobs/types';
import { setEnv } from '@/lib/sandbox/env/store';
import { updateRuntimeSettings } from '@/lib/settings/store';
import { describeDocker } from '@/test/helpers/docker';
import { installActor as actor, type InstallKit, startInstallKit } from '@/test/helpers/install-jobs';
import { ensurePipImage, type PipIndex, removePipImage, startPipIndex } from '@/test/helpers/pip-index';
import { ensureDebianPythonImage } from '@/test/helpers/sandbox-images';
import { buildWheel } from '@/test/helpers/wheels';
import { skillInstallJob } from '../jobs/handlers';
import * as store from '../records/store';

const FIXTURE = path.resolve('test/fixtures/skills-real-pip/python-debugpy');
const SCRIPT = '/opt/skilldock/skills/python-debugpy/scripts/debugpy_ready.py';
// Folders where a machine may keep published wheels (a local mirror); the published debugpy is used
// when one holds a build for the test image's Python 3.11 on this architecture.
const WHEEL_DIRS = (process.env.SKILLDOCK_TEST_WHEEL_DIRS ?? '/opt/pypi/files:/opt/wheels').split(':').filter(Boolean);
const PUBLISHED = /^debugpy-(\d+(?:\.\d+)+)-(?:py3-none-any|cp311-cp311-manylinux_2_(\d+)_x86_64)\.whl$/;

/** The published debugpy wheel when the machine has one that fits, else a small one of that name. */
async function debugpyWheel(dir: string): Promise<{ file: string; version: string }> {
  for (const d of WHEEL_DIRS) {
    const names = fs.existsSync(d) ? fs.readdirSync(d) : [];
    for (const name of names.sort().reverse()) {
      const m = PUBLISHED.exec(name);
      // Bookworm's glibc is 2.36; x86_64 builds only on an x86_64 engine.
      const fits = m && (!m[2] || (Number(m[2]) <= 36 && process.arch === 'x64'));
      if (m && fits) return { file: path.join(d, name), version: m[1] };
    }
  }
  const version = '0.0.1';
  const file = await buildWheel(dir, {
    name: 'debugpy',
    version,
    modules: {
      'debugpy/__init__.py': `__version__ = "${version}"\n`,
      'debugpy/__main__.py': 'import sys\nimport debugpy\nif "--version" in sys.argv:\n    print(debugpy.__version__)\n',
    },
  });
  return { file, version };
}

async function fixtureFiles(): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const rel of ['SKILL.md', 'LICENSE', 'scripts/debugpy_ready.py']) out[rel] = await fsp.readFile(path.join(FIXTURE, rel), 'utf8');
  return out;
}

describeDocker('skill install with a pip dependency from a served index', () => {
  let kit: InstallKit;
  let index: PipIndex | undefined;
  let pipImage = '';
  let tmp = '';
  let wheel: { file: string; version: string };
  const db = () => kit.ts.services.database.db;
  const labels = { 'io.skilldock.test': `pip-install-${randomBytes(4).toString('hex')}` };

  async function install(configId: string): Promise<{ job: JobRow; record: store.InstallRecord; lines: string[] }> {
    const skill = await kit.storeSkill('python-debugpy', await fixtureFiles());
    const begun = await kit.begin(configId, skill);
    const queued = await enqueue(kit.ts.services.database, actor, skillInstallJob, { installIds: [begun.id] }, { trusted: true });
    const job = await kit.waitJob(queued.id);
    const record = (await store.getInstall(db(), begun.id))!;
    const lines = (await readJobLogs(kit.ts.services.database, job.id, 0, 5000)).map((l) => l.line);
    return { job, record, lines };
  }

  beforeAll(async () => {
    kit = await startInstallKit();
    tmp = await fsp.mkdtemp(path.join(os.tmpdir(), 'skd-pip-'));
    wheel = await debugpyWheel(tmp);
    index = await startPipIndex(kit.docker, [wheel.file], labels);
    pipImage = await ensurePipImage(kit.docker);
    await updateRuntimeSettings(db(), actor, { pipIndexUrl: index.url });
  }, 25 * 60_000);

  afterAll(async () => {
    await kit?.stop();
    await index?.stop();
    if (pipImage) await removePipImage(kit.docker, pipImage);
    if (tmp) await fsp.rm(tmp, { recursive: true, force: true });
  });

  it('installs debugpy from the index into a snapshot whose sandboxes run the skill script', async () => {
    const url = index!.url;
    const host = index!.ip;
    const configId = await kit.newConfig('pip-debugpy', { image: pipImage, network: { denyEgressByDefault: true, allowOut: [index!.subnet] } });
    const { job, record, lines } = await install(configId);
    expect(job.error).toBeNull();
    expect(job.state).toBe('succeeded');
    expect(record).toMatchObject({ state: 'ready', imageGeneration: 1, error: null });
    expect(await store.activeImage(db(), configId)).toMatchObject({ generation: 1, state: 'active' });
    expect(lines).toContain(
      `$ /opt/skilldock/python/bin/python3 -m pip install --no-input --disable-pip-version-check --index-url ${url} --trusted-host ${host} -- debugpy`,
    );
    expect(lines.some((l) => l.includes(`Successfully installed debugpy-${wheel.version}`))).toBe(true);
    expect(await kit.maintenanceLeft(configId)).toEqual([]);

    const ran = await kit.runIn(configId, ['python3', SCRIPT]);
    expect(ran.exitCode).toBe(0);
    expect(ran.stdout).toMatch(
      new RegExp(`^debugpy ${wheel.version.replaceAll('.', '\\.')} from /opt/skilldock/python/lib/python3\\.\\d+/site-packages/debugpy/__init__\\.py\\n$`),
    );
    const mod = await kit.runIn(configId, ['python3', '-m', 'debugpy', '--version']);
    expect(mod).toMatchObject({ exitCode: 0, stdout: `${wheel.version}\n` });

    // The same pip without the flag refuses the index: the flag, not the image, made it trusted.
    const refused = await kit.runIn(configId, [
      'sh',
      '-c',
      'python3 -m pip download --no-deps --no-input --disable-pip-version-check -d /tmp/dl --index-url "$1" debugpy 2>&1',
      'pip-untrusted',
      url,
    ]);
    expect(refused.exitCode).not.toBe(0);
    expect(refused.stdout).toContain('is not a trusted or secure host');
  }, 240_000);

  it("gives the install steps the config's variables: a private index named only there is where pip installs from", async () => {
    const url = index!.url;
    await updateRuntimeSettings(db(), actor, { pipIndexUrl: '' });
    try {
      const configId = await kit.newConfig('pip-vars', { image: pipImage, network: { denyEgressByDefault: true, allowOut: [index!.subnet] } });
      const { secrets } = kit.ts.services;
      await setEnv(db(), secrets, actor, { level: 'config', configId }, 'PIP_INDEX_URL', url);
      await setEnv(db(), secrets, actor, { level: 'config', configId }, 'PIP_TRUSTED_HOST', index!.ip);
      const { job, lines } = await install(configId);
      expect(job.state, JSON.stringify(job.error)).toBe('succeeded');
      // No index on the command line: pip found it in the step's environment.
      expect(lines).toContain('$ /opt/skilldock/python/bin/python3 -m pip install --no-input --disable-pip-version-check -- debugpy');
      expect(lines.some((l) => l.includes(`Successfully installed debugpy-${wheel.version}`))).toBe(true);
      // Given to the step's process only: the snapshot's sandboxes do not carry it in their image.
      const inspect = await kit.docker.getImage((await store.activeImage(db(), configId))!.plannedRef).inspect();
      expect((inspect.Config.Env ?? []).some((e) => e.startsWith('PIP_INDEX_URL='))).toBe(false);
    } finally {
      await updateRuntimeSettings(db(), actor, { pipIndexUrl: url });
    }
  }, 240_000);

  it('fails at the plan when the image has no pip, naming pip, with no image built and no container left', async () => {
    const plain = await ensureDebianPythonImage(kit.docker);
    const configId = await kit.newConfig('pip-none', { image: plain, network: { denyEgressByDefault: true, allowOut: [index!.subnet] } });
    const { job, record, lines } = await install(configId);
    expect(job.state).toBe('failed');
    expect(record.state).toBe('failed');
    expect(record.error).toMatchObject({ code: 'unresolved_precondition', stage: 'plan' });
    expect(record.error?.message).toContain('the image has no pip; use an image with python3-pip');
    expect(record.error?.message).toContain('debugpy');
    expect(lines.some((l) => l.includes(' -m pip install '))).toBe(false);
    expect(await store.activeImage(db(), configId)).toBeNull();
    expect((await store.listImages(db(), configId)).filter((i) => i.state === 'active' || i.state === 'building')).toEqual([]);
    const engineImages = await kit.docker.listImages({ filters: { label: [`io.skilldock.config-id=${configId}`] } });
    expect(engineImages).toEqual([]);
    expect(await kit.maintenanceLeft(configId)).toEqual([]);
  }, 180_000);
});
