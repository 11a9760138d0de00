// test-phase: pglite only. What it proves is OpenClaw's own reading of what Skilldock wrote;
// the gateway store it writes through runs on both engines in the doors tests.
// A real OpenClaw (the npm package on Node 24, in an image built offline) in a container, reached
// through the Engine API only; every result is checked by asking OpenClaw itself or the engine.
import { createHash, randomBytes } from 'node:crypto';
import Docker from 'dockerode';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { AppError } from '@/lib/core/errors';
import { buildTar } from '@/lib/sandbox/docker/tar';
import { describeDocker } from '@/test/helpers/docker';
import { ensureOpenClawImage } from '@/test/helpers/openclaw-image';
import { ConfigChangedError, MARKER_FILE, type SkillFolder } from '../access';
import { folderDigest } from '../folder/paths';
import { DockerOpenClawAccess, gatewayDocker } from './docker-access';
import { execInContainer } from './docker-exec';
import { readContainerFile, scanFolder } from './docker-files';

const RUN = randomBytes(6).toString('hex');
const LABELS = { 'io.skilldock.test-run': RUN };
const STATE = '/root/.openclaw';

const CONFIG = `// The operator's own notes.
{
  agents: {
    ownership: "explicit",
    entries: { a1: {}, a2: { skills: [] } },
  },
  channels: { telegram: { enabled: false } },
}
`;

const skillMd = (name: string, text: string) => `---\nname: ${name}\ndescription: ${text}\n---\n\n# ${name}\n\n${text}\n`;

function folder(name: string, files: Record<string, string>): SkillFolder {
  const list = Object.entries(files).map(([path, text]) => ({ path, mode: 0o644, data: Buffer.from(text) }));
  return { name, digest: folderDigest(list), files: list };
}

async function rejection(p: Promise<unknown>): Promise<unknown> {
  return p.then(
    () => {
      throw new Error('expected a rejection');
    },
    (e: unknown) => e,
  );
}

describeDocker('OpenClaw gateway in a Docker container', () => {
  const docker = new Docker();
  let image = '';
  let id = '';
  let gw: DockerOpenClawAccess;

  const start = async (env: string[] = []) => {
    const c = await docker.createContainer({ Image: image, Cmd: ['/bin/sleep', 'infinity'], Labels: LABELS, Env: env, NetworkDisabled: true });
    await c.start();
    return c.id;
  };
  const text = async (p: string) => (await readContainerFile(gatewayDocker(docker), id, p, 1 << 20))?.toString('utf8') ?? null;

  beforeAll(async () => {
    image = await ensureOpenClawImage(docker, LABELS);
    id = await start();
    const now = new Date();
    await docker.getContainer(id).putArchive(
      buildTar([
        { type: 'dir', name: '.openclaw', mode: 0o700, mtime: now },
        { type: 'file', name: '.openclaw/openclaw.json', data: Buffer.from(CONFIG), mode: 0o600, mtime: now },
        { type: 'dir', name: '.openclaw/skills', mtime: now },
        { type: 'dir', name: '.openclaw/skills/local-note', mtime: now },
        { type: 'file', name: '.openclaw/skills/local-note/SKILL.md', data: Buffer.from(skillMd('local-note', 'Notes the operator wrote.')), mtime: now },
      ]),
      { path: '/root' },
    );
    gw = new DockerOpenClawAccess({ type: 'docker', container: id, stateDir: STATE }, docker);
  }, 600_000);

  afterAll(async () => {
    for (const c of await docker.listContainers({ all: true, filters: { label: [`io.skilldock.test-run=${RUN}`] } }))
      await docker
        .getContainer(c.Id)
        .remove({ force: true })
        .catch(() => {});
  });

  it('reads the version and the config with its hash', async () => {
    expect(await gw.version()).toMatch(/^\d{4}\.\d+\.\d+/);
    const cfg = await gw.readConfig();
    expect(cfg.path).toBe(`${STATE}/openclaw.json`);
    expect(cfg.raw).toBe(CONFIG);
    expect(cfg.hash).toBe(createHash('sha256').update(CONFIG).digest('hex'));
    expect(cfg.writable).toBe(true);
    expect(cfg.value).toMatchObject({ agents: { ownership: 'explicit', entries: { a1: {}, a2: { skills: [] } } }, channels: { telegram: { enabled: false } } });
  });

  it("patches the config through the gateway's CLI, and the gateway sees it", async () => {
    const before = await gw.readConfig();
    const { hash } = await gw.patchConfig({ agents: { entries: { a1: { skills: ['local-note'] } } } }, before.hash, []);
    const after = await gw.readConfig();
    expect(hash).toBe(after.hash);
    expect(hash).not.toBe(before.hash);
    expect(after.value).toMatchObject({
      agents: { entries: { a1: { skills: ['local-note'] }, a2: { skills: [] } } },
      channels: { telegram: { enabled: false } },
    });
    const [a1, a2] = await gw.agentSkills(['a1', 'a2']);
    expect(a1?.managedSkillsDir).toBe(`${STATE}/skills`);
    expect(a1?.skills.find((s) => s.name === 'local-note')).toMatchObject({ source: 'openclaw-managed', modelVisible: true, blockedByAgentFilter: false });
    expect(a2?.skills.find((s) => s.name === 'local-note')).toMatchObject({ modelVisible: false, blockedByAgentFilter: true });
  });

  it('refuses a write based on a stale hash and writes nothing', async () => {
    const stale = createHash('sha256').update(CONFIG).digest('hex');
    const before = await gw.readConfig();
    expect(before.hash).not.toBe(stale);
    const e = await rejection(gw.patchConfig({ agents: { entries: { a1: { skills: [] } } } }, stale, []));
    expect(e).toBeInstanceOf(ConfigChangedError);
    expect((await gw.readConfig()).raw).toBe(before.raw);
  });

  it('turns a patch the gateway refuses into a validation error naming its reason', async () => {
    const now = await gw.readConfig();
    const e = await rejection(gw.patchConfig({ agents: { entries: { a1: { skills: 7 } } } }, now.hash, []));
    expect(e).toBeInstanceOf(AppError);
    expect((e as AppError).code).toBe('validation');
    expect((e as AppError).message).toMatch(/agents\.entries\.a1\.skills/);
    expect((await gw.readConfig()).raw).toBe(now.raw);
  });

  it('puts, swaps and removes a skill folder with its marker, and leaves foreign folders alone', async () => {
    const v1 = folder('sd-note', { 'SKILL.md': skillMd('sd-note', 'First version.'), 'notes/old.txt': 'only in v1' });
    await gw.putSkill(v1);
    let listed = await gw.managedFolders();
    expect(listed.ours.get('sd-note')).toEqual({ name: 'sd-note', digest: v1.digest });
    expect([...listed.foreign]).toEqual(['local-note']);
    expect(await text(`${STATE}/skills/sd-note/notes/old.txt`)).toBe('only in v1');
    expect(JSON.parse((await text(`${STATE}/skills/sd-note/${MARKER_FILE}`)) ?? '{}')).toMatchObject({ name: 'sd-note', digest: v1.digest });

    const v2 = folder('sd-note', { 'SKILL.md': skillMd('sd-note', 'Second version.') });
    await gw.putSkill(v2);
    expect((await gw.managedFolders()).ours.get('sd-note')?.digest).toBe(v2.digest);
    expect(await text(`${STATE}/skills/sd-note/SKILL.md`)).toContain('Second version.');
    expect(await text(`${STATE}/skills/sd-note/notes/old.txt`)).toBeNull();
    const names = [...((await scanFolder(gatewayDocker(docker), id, `${STATE}/skills`))?.entries.keys() ?? [])].sort();
    expect(names).toEqual(['local-note', 'sd-note']);
    const [a1] = await gw.agentSkills(['a1']);
    expect(a1?.skills.find((s) => s.name === 'sd-note')).toMatchObject({ source: 'openclaw-managed', blockedByAgentFilter: true });

    await gw.removeSkill('sd-note');
    listed = await gw.managedFolders();
    expect(listed.ours.size).toBe(0);
    expect(await text(`${STATE}/skills/sd-note/SKILL.md`)).toBeNull();

    const foreignPut = await rejection(gw.putSkill(folder('local-note', { 'SKILL.md': skillMd('local-note', 'Not the operator.') })));
    expect((foreignPut as AppError).code).toBe('conflict');
    const foreignRemove = await rejection(gw.removeSkill('local-note'));
    expect((foreignRemove as AppError).code).toBe('conflict');
    expect(await text(`${STATE}/skills/local-note/SKILL.md`)).toContain('Notes the operator wrote.');
    const after = [...((await scanFolder(gatewayDocker(docker), id, `${STATE}/skills`))?.entries.keys() ?? [])];
    expect(after).toEqual(['local-note']);
  });

  it('stops a command that outlives its deadline', async () => {
    const marker = `skilldock-deadline-${RUN}`;
    const e = await rejection(
      execInContainer(gatewayDocker(docker), id, {
        argv: ['/usr/local/bin/node', '-e', 'setInterval(() => {}, 1000)', marker],
        timeoutMs: 500,
        maxOutputBytes: 1024,
      }),
    );
    expect((e as AppError).code).toBe('unavailable');
    expect((e as AppError).details).toMatchObject({ stopped: true });
    const top = (await docker.getContainer(id).top({ ps_args: '-o pid,args' })) as { Processes: string[][] };
    expect(top.Processes.map((p) => p.join(' ')).filter((l) => l.includes(marker))).toEqual([]);
  });

  it('reports a read-only config as not writable and refuses to patch it', async () => {
    const ro = await start(['OPENCLAW_CONFIG_READONLY=1']);
    await docker.getContainer(ro).putArchive(buildTar([{ type: 'file', name: '.openclaw/openclaw.json', data: Buffer.from(CONFIG) }]), { path: '/root' });
    const access = new DockerOpenClawAccess({ type: 'docker', container: ro, stateDir: STATE }, docker);
    const cfg = await access.readConfig();
    expect(cfg.writable).toBe(false);
    const e = await rejection(access.patchConfig({ channels: null }, cfg.hash, []));
    expect((e as AppError).code).toBe('not_allowed');
  });

  it('writes skill folders a gateway running as another user can replace and remove', async () => {
    const c = await docker.createContainer({ Image: image, Cmd: ['/bin/sleep', 'infinity'], Labels: LABELS, User: 'nobody', NetworkDisabled: true });
    await c.start();
    const state = '/tmp/oc-nobody';
    await c.putArchive(
      buildTar([
        { type: 'dir', name: 'oc-nobody', mode: 0o700 },
        { type: 'file', name: 'oc-nobody/openclaw.json', data: Buffer.from(CONFIG) },
      ]),
      {
        path: '/tmp',
        copyUIDGID: true,
      },
    );
    const access = new DockerOpenClawAccess({ type: 'docker', container: c.id, stateDir: state }, docker);
    const v1 = folder('sd-owned', { 'SKILL.md': skillMd('sd-owned', 'First.'), 'sub/a.txt': 'a' });
    const v2 = folder('sd-owned', { 'SKILL.md': skillMd('sd-owned', 'Second.') });
    await access.putSkill(v1);
    await access.putSkill(v2);
    expect((await access.managedFolders()).ours.get('sd-owned')?.digest).toBe(v2.digest);
    await access.removeSkill('sd-owned');
    const left = await scanFolder(gatewayDocker(docker), c.id, `${state}/skills`);
    expect([...(left?.entries.keys() ?? [])]).toEqual([]);
    const owner = await execInContainer(gatewayDocker(docker), c.id, {
      argv: ['/usr/bin/stat', '-c', '%U', `${state}/skills`],
      timeoutMs: 10_000,
      maxOutputBytes: 1024,
    });
    expect(owner.stdout.trim()).toBe('nobody');
  });

  it('names a container that is gone', async () => {
    const gone = await start();
    await docker.getContainer(gone).remove({ force: true });
    const access = new DockerOpenClawAccess({ type: 'docker', container: gone, stateDir: STATE }, docker);
    // One call at a time: a call started early would reject while an earlier one is awaited, unhandled.
    for (const call of [() => access.version(), () => access.readConfig(), () => access.managedFolders()]) {
      const e = await rejection(call());
      expect(e).toBeInstanceOf(AppError);
      expect((e as AppError).code).toBe('not_found');
      expect((e as AppError).message).toContain(`gateway container ${gone} does not exist`);
    }
  });
});
