// The Docker side of a skill install: a maintenance container started from the config's current
// image under the config's own limits and network policy, the skill folder copied in, steps run
// (step.ts), the result committed as the next snapshot image, and what a crash leaves behind
// reclaimed (skill copy: skill-copy.ts).
import { AppError } from '@/lib/core/errors';
import type { CreateSandboxSpec } from '@/lib/sandbox/backend';
import { CONFIG_LABEL } from '@/lib/sandbox/config/in-use';
import type { SandboxActivity } from '@/lib/sandbox/docker/activity';
import { checkImage, type DockerBackend } from '@/lib/sandbox/docker/backend';
import { type DockerConnection, statusOf, toAppError } from '@/lib/sandbox/docker/connection';
import { GENERATION_LABEL, isMaintenanceLabels, isRunId, MAINTENANCE_LABEL, PARENT_LABEL, SNAPSHOT_LABEL } from '../../sandbox/images/snapshot-names';
import type { Maintenance } from './maintenance';
import { runScript } from './skill-copy';

export type { Maintenance } from './maintenance';
export { copySkill, MAX_SKILL_BYTES, MAX_SKILL_ENTRIES, MAX_SKILL_ENTRY_BYTES, removeSkill, runScript, type SkillFile, skillDir } from './skill-copy';
export { type InstallStep, type RunningStep, runStep, type StepResult, type StepStream } from './step';

const COMMIT_TIMEOUT_MS = 30 * 60_000;

export interface OpenMaintenanceInput {
  configId: string;
  /** The config's current image: its active snapshot, or its base image. */
  image: string;
  /** The config's sandbox spec (sandboxSpecFor): limits and network policy apply as to any sandbox. */
  spec: Omit<CreateSandboxSpec, 'image'>;
  runId: string;
}

export async function openMaintenance(backend: DockerBackend, input: OpenMaintenanceInput): Promise<Maintenance> {
  const { configId, runId } = input;
  if (!isRunId(runId)) throw new AppError('validation', 'invalid install run id', { issues: [{ path: 'runId', message: 'letters, digits, _ . -' }] });
  checkImage(input.image);
  // Left out: the env (it would be baked into the snapshot; steps get theirs per exec), a host
  // workspace mount (the commit wipes /workspace) and a read-only rootfs (installs write to it).
  const { env: _env, labels, ...spec } = input.spec;
  const sandbox = await backend
    .withSettings({ configId, readOnlyRootfs: false, workspaceMount: undefined })
    .create({ ...spec, image: input.image, labels: { ...labels, [CONFIG_LABEL]: configId, [MAINTENANCE_LABEL]: runId } });
  const conn = backend.conn;
  const releaseLease = await backend.activity.acquireLease(sandbox.id, 'install');
  try {
    const c = await conn.api.getContainer(sandbox.id).inspect();
    const parent = await conn.api.getImage(c.Image).inspect();
    return {
      containerId: sandbox.id,
      configId,
      runId,
      conn,
      parentImageId: parent.Id,
      parentConfig: parent.Config ?? {},
      releaseLease,
      activity: backend.activity,
      closed: false,
    } as Maintenance;
  } catch (e) {
    await conn.api
      .getContainer(sandbox.id)
      .remove({ force: true, v: true })
      .catch(() => {});
    await releaseLease();
    throw toAppError(e, conn.endpoint, 'inspect the maintenance container');
  }
}

/** Always removes the container and its volumes; safe to call twice. */
export async function closeMaintenance(m: Maintenance): Promise<void> {
  m.closed = true;
  try {
    await m.conn.api.getContainer(m.containerId).remove({ force: true, v: true });
  } catch (e) {
    if (statusOf(e) !== 404) throw toAppError(e, m.conn.endpoint, `remove maintenance container ${m.containerId}`);
  } finally {
    await m.releaseLease();
    await m.activity.forget([m.containerId]);
  }
}

// Contents only: the folders stay, with their modes. Globs that match nothing stay literal and
// rm -f ignores them.
const WIPE_SCRIPT = `for d in /workspace /tmp; do
  [ -d "$d" ] || continue
  rm -rf -- "$d"/* "$d"/.[!.]* "$d"/..?*
done`;

export interface SnapshotInput {
  /** `repository:tag`, recorded before the commit so a crash leaves a findable image. */
  plannedRef: string;
  generation: number;
  /** Extra labels; the snapshot's own labels win over these. */
  labels?: Record<string, string>;
  /** Env baked into the image, over the parent image's (a name given here replaces the parent's). */
  env?: Readonly<Record<string, string>>;
}

export interface SnapshotResult {
  imageId: string;
  ref: string;
  sizeBytes: number;
  layers: number;
}

function splitRef(ref: string): { repo: string; tag: string } {
  checkImage(ref);
  const colon = ref.lastIndexOf(':');
  if (ref.includes('@') || colon < 0 || ref.slice(colon).includes('/'))
    throw new AppError('validation', `snapshot reference ${ref} needs a tag and no digest`, { issues: [{ path: 'plannedRef', message: 'repository:tag' }] });
  return { repo: ref.slice(0, colon), tag: ref.slice(colon + 1) };
}

function withEnv(parent: string[], env: Readonly<Record<string, string>>): string[] {
  const names = new Set(Object.keys(env));
  return [...parent.filter((e) => !names.has(e.slice(0, e.indexOf('=')))), ...Object.entries(env).map(([k, v]) => `${k}=${v}`)];
}

export async function commitSnapshot(m: Maintenance, input: SnapshotInput): Promise<SnapshotResult> {
  const { repo, tag } = splitRef(input.plannedRef);
  if (!Number.isInteger(input.generation) || input.generation < 1)
    throw new AppError('validation', 'snapshot generation must be a positive integer', { issues: [{ path: 'generation', message: 'positive integer' }] });
  await runScript(m, 'snapshot-wipe', WIPE_SCRIPT, []);
  const p = m.parentConfig;
  // The engine fills every field this body leaves empty from the container, whose entrypoint,
  // working directory and labels are Skilldock's own; so the parent image's are sent in full.
  // A container label cannot be dropped, only overwritten: the maintenance one is blanked.
  const config = {
    ...p,
    Entrypoint: p.Entrypoint ?? [],
    Cmd: p.Cmd ?? [],
    WorkingDir: p.WorkingDir || '/',
    Env: withEnv(p.Env ?? [], input.env ?? {}),
    Labels: {
      ...(p.Labels ?? {}),
      ...(input.labels ?? {}),
      [MAINTENANCE_LABEL]: '',
      [SNAPSHOT_LABEL]: 'true',
      [CONFIG_LABEL]: m.configId,
      [GENERATION_LABEL]: String(input.generation),
      [PARENT_LABEL]: m.parentImageId,
    },
  };
  const query = { container: m.containerId, repo, tag, pause: true, comment: `Skilldock skill snapshot, generation ${input.generation}` };
  const signal = AbortSignal.timeout(COMMIT_TIMEOUT_MS);
  let imageId: string;
  try {
    const res = (await m.conn.stream.getContainer(m.containerId).commit({ _query: query, _body: config, abortSignal: signal })) as { Id: string };
    imageId = res.Id;
  } catch (e) {
    throw toAppError(e, m.conn.endpoint, `commit ${input.plannedRef}`);
  }
  try {
    const img = await m.conn.api.getImage(imageId).inspect();
    return { imageId: img.Id, ref: `${repo}:${tag}`, sizeBytes: img.Size, layers: img.RootFS?.Layers?.length ?? 0 };
  } catch (e) {
    throw toAppError(e, m.conn.endpoint, `inspect ${input.plannedRef}`);
  }
}

export async function imageExists(conn: DockerConnection, ref: string): Promise<boolean> {
  checkImage(ref);
  try {
    await conn.api.getImage(ref).inspect();
    return true;
  } catch (e) {
    if (statusOf(e) === 404) return false;
    throw toAppError(e, conn.endpoint, `inspect image ${ref}`);
  }
}

export interface ReclaimInput {
  /** Refs the store planned for snapshots; only these are ever removed. */
  plannedRefs: string[];
  /** Refs that serve (or may still serve) a config: never removed, even when also planned. */
  keepRefs: string[];
  /** Install runs still in progress elsewhere (another replica): their containers stay. */
  liveRunIds?: string[];
  /**
   * Only containers of these configs are touched: other databases (other installations, or test
   * runs) may share the engine, and their live maintenance containers are not this store's to judge.
   * Required: there is no "every config on the engine".
   */
  configIds: readonly string[];
  /** Leases of every replica (a maintenance container in use anywhere stays), or of the one backend the caller has. */
  activity: SandboxActivity;
}

export interface ReclaimResult {
  containers: string[];
  images: string[];
  /** Planned refs whose image a container still uses. */
  inUse: string[];
}

/** Removes the maintenance containers and planned-but-unused snapshot images a crash left. */
export async function reclaimLeftovers(conn: DockerConnection, input: ReclaimInput): Promise<ReclaimResult> {
  const result: ReclaimResult = { containers: [], images: [], inUse: [] };
  const live = new Set(input.liveRunIds ?? []);
  const ours = new Set(input.configIds);
  try {
    const leftovers = await conn.api.listContainers({ all: true, filters: { label: [MAINTENANCE_LABEL] } });
    const activity = input.activity;
    const leases = await activity.view();
    for (const c of leftovers) {
      if (!isMaintenanceLabels(c.Labels) || live.has(c.Labels[MAINTENANCE_LABEL] as string) || leases.isLeased(c.Id, c.Names)) continue;
      if (!ours.has(c.Labels[CONFIG_LABEL] as string)) continue;
      await conn.api
        .getContainer(c.Id)
        .remove({ force: true, v: true })
        .catch((e) => {
          if (statusOf(e) !== 404) throw e;
        });
      await activity.forget([c.Id]);
      result.containers.push(c.Id);
    }
    const keep = new Set(input.keepRefs);
    const planned = new Set(input.plannedRefs.filter((r) => !keep.has(r)));
    if (planned.size === 0) return result;
    const used = new Set((await conn.api.listContainers({ all: true })).map((c) => c.ImageID));
    const images = await conn.api.listImages({ filters: { label: [`${SNAPSHOT_LABEL}=true`] } });
    for (const img of images) {
      for (const ref of img.RepoTags ?? []) {
        if (!planned.has(ref)) continue;
        if (used.has(img.Id)) {
          result.inUse.push(ref);
          continue;
        }
        try {
          await conn.api.getImage(ref).remove();
          result.images.push(ref);
        } catch (e) {
          // 409: a container started from it in the meantime.
          if (statusOf(e) === 409) result.inUse.push(ref);
          else if (statusOf(e) !== 404) throw e;
        }
      }
    }
    return result;
  } catch (e) {
    throw toAppError(e, conn.endpoint, 'reclaim install leftovers');
  }
}
