// What a Skilldock sandbox container looks like to the engine: PID 1 an idle process the image
// cannot replace, capabilities cut to a short list, no privilege gain, an init, bounded memory
// (no swap), CPU and PIDs, labels on the container and its volumes, and Skilldock's control kit
// mounted read-only. Pure: no engine call here.
import fs from 'node:fs';
import path from 'node:path';
import type Docker from 'dockerode';
import { AppError } from '@/lib/core/errors';
import { LABEL_INSTALLATION } from '../../cluster/installation';
import type { CreateSandboxSpec } from '../backend';
import { KIT_MOUNT } from '../kit/build';
import { type KitVolume, LABEL_KIT } from '../kit/volume';

export const LABEL_MANAGED = 'io.skilldock.managed';
export const LABEL_CONFIG = 'io.skilldock.config-id';
export const LABEL_IDLE_TTL = 'io.skilldock.idle-ttl-seconds';
/** The installation (one database) that made the object: the sweep and cleanups touch only their own. */
export { LABEL_INSTALLATION };
export const WORKSPACE = '/workspace';

export const CAP_ADD = ['CHOWN', 'DAC_OVERRIDE', 'FOWNER', 'FSETID', 'SETGID', 'SETUID', 'KILL'] as const;
export const DEFAULTS = { cpu: 2, memoryMb: 2048, pids: 512, idleTtlSeconds: 1800 } as const;

export interface WorkspaceMount {
  /** Host directory mounted at /workspace; must resolve inside one of `allowedRoots`. */
  hostPath: string;
  allowedRoots: string[];
  readOnly?: boolean;
}

/** Config-level settings of a Docker sandbox config (the per-create part is CreateSandboxSpec). */
export interface DockerSandboxSettings {
  configId?: string;
  /** This installation's id (services.installationId), on every container's labels. */
  installationId?: string;
  user?: string;
  runtime?: string;
  readOnlyRootfs?: boolean;
  workspaceMount?: WorkspaceMount;
  /** `none` or `bridge` when the spec names no network. */
  network?: string;
  /** DNS servers of the container (the DNS forwarder on the network's gateway). */
  dns?: string[];
}

const NAME_RE = /^[a-zA-Z0-9][a-zA-Z0-9_.-]{0,127}$/;
// process-wide: a constant table, never written
const REFUSED_NETWORKS = new Set(['host']);

function canonicalRoot(root: string): string {
  if (!path.isAbsolute(root))
    throw new AppError('validation', `allowed root ${root} is not absolute`, { issues: [{ path: 'workspaceMount.allowedRoots', message: 'absolute path' }] });
  try {
    const real = fs.realpathSync(root);
    if (!fs.statSync(real).isDirectory()) throw new Error('not a directory');
    return real;
  } catch (e) {
    throw new AppError('validation', `allowed root ${root} does not exist or is not a directory`, {
      issues: [{ path: 'workspaceMount.allowedRoots', message: 'must exist' }],
      cause: e,
    });
  }
}

/** The canonical host path to bind, or a `not_allowed` error when it resolves outside every root. */
export function resolveWorkspaceMount(m: WorkspaceMount): string {
  if (m.allowedRoots.length === 0)
    throw new AppError('not_allowed', 'host workspace mounts are not allowed: no allowed roots configured', {
      issues: [{ path: 'workspaceMount.hostPath', message: 'no allowed roots' }],
    });
  const roots = m.allowedRoots.map(canonicalRoot);
  if (!path.isAbsolute(m.hostPath) || m.hostPath.includes('\0') || m.hostPath.split('/').includes('..')) {
    throw new AppError('validation', 'the workspace mount must be an absolute path without ..', {
      issues: [{ path: 'workspaceMount.hostPath', message: 'absolute, no ..' }],
    });
  }
  let real: string;
  try {
    real = fs.realpathSync(m.hostPath);
  } catch (e) {
    throw new AppError('validation', `workspace mount ${m.hostPath} does not exist`, {
      issues: [{ path: 'workspaceMount.hostPath', message: 'must exist' }],
      cause: e,
    });
  }
  const inside = roots.some((r) => real === r || real.startsWith(r.endsWith('/') ? r : `${r}/`));
  if (!inside) {
    throw new AppError('not_allowed', `workspace mount ${m.hostPath} resolves to ${real}, outside the allowed roots`, {
      issues: [{ path: 'workspaceMount.hostPath', message: 'outside the allowed roots' }],
      details: { resolved: real, allowedRoots: roots },
    });
  }
  return real;
}

function networkMode(spec: CreateSandboxSpec, s: DockerSandboxSettings): string {
  const n = spec.network ?? s.network ?? 'none';
  if (REFUSED_NETWORKS.has(n) || n.startsWith('container:') || !NAME_RE.test(n)) {
    throw new AppError('validation', `network ${JSON.stringify(n.slice(0, 80))} is not allowed for sandboxes`, {
      issues: [{ path: 'network', message: 'none, bridge or a named network' }],
    });
  }
  return n;
}

function positive(v: number | undefined, fallback: number, field: string, max: number): number {
  const n = v ?? fallback;
  if (!Number.isFinite(n) || n <= 0 || n > max)
    throw new AppError('validation', `${field} must be in (0, ${max}]`, { issues: [{ path: `limits.${field}`, message: 'out of range' }] });
  return n;
}

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** The labels every object this backend creates carries. */
export function skilldockLabels(spec: CreateSandboxSpec, s: DockerSandboxSettings): Record<string, string> {
  const ttl = positive(spec.idleTtlSeconds, DEFAULTS.idleTtlSeconds, 'idleTtlSeconds', 30 * 24 * 3600);
  return {
    ...(spec.labels ?? {}),
    [LABEL_MANAGED]: 'true',
    ...(s.configId ? { [LABEL_CONFIG]: s.configId } : {}),
    ...(s.installationId ? { [LABEL_INSTALLATION]: s.installationId } : {}),
    [LABEL_IDLE_TTL]: String(Math.ceil(ttl)),
  };
}

/** The ContainerCreate body; `hostWorkspace` is the canonical path from resolveWorkspaceMount. */
export function containerCreateOptions(
  spec: CreateSandboxSpec,
  s: DockerSandboxSettings,
  kit: KitVolume,
  hostWorkspace?: string,
): Docker.ContainerCreateOptions {
  const labels: Record<string, string> = { ...skilldockLabels(spec, s), [LABEL_KIT]: kit.version };
  const cpu = positive(spec.limits?.cpu, DEFAULTS.cpu, 'cpu', 256);
  const memoryMb = positive(spec.limits?.memoryMb, DEFAULTS.memoryMb, 'memoryMb', 1024 * 1024);
  const pids = positive(spec.limits?.pids, DEFAULTS.pids, 'pids', 1_000_000);
  const memory = Math.floor(memoryMb * 1024 * 1024);
  for (const k of Object.keys(spec.env ?? {})) {
    if (!ENV_NAME.test(k))
      throw new AppError('validation', `invalid environment variable name ${JSON.stringify(k.slice(0, 60))}`, {
        issues: [{ path: `env.${k}`, message: 'invalid name' }],
      });
  }
  // Read-only: no process of the sandbox can change the program Skilldock controls it with.
  const mounts: Docker.MountSettings[] = [{ Type: 'volume', Source: kit.name, Target: KIT_MOUNT, ReadOnly: true }];
  if (hostWorkspace) {
    mounts.push({ Type: 'bind', Source: hostWorkspace, Target: WORKSPACE, ReadOnly: !!s.workspaceMount?.readOnly });
  } else if (s.readOnlyRootfs) {
    // A volume rather than a tmpfs: the archive API writes into volumes but not into tmpfs mounts.
    mounts.push({ Type: 'volume', Target: WORKSPACE, VolumeOptions: { Labels: labels } } as Docker.MountSettings);
  }
  const host: Docker.HostConfig = {
    Memory: memory,
    MemorySwap: memory,
    NanoCpus: Math.round(cpu * 1e9),
    PidsLimit: Math.floor(pids),
    CapDrop: ['ALL'],
    CapAdd: [...CAP_ADD],
    SecurityOpt: ['no-new-privileges'],
    Init: true,
    NetworkMode: networkMode(spec, s),
    ReadonlyRootfs: !!s.readOnlyRootfs,
    Mounts: mounts,
    ...(s.readOnlyRootfs ? { Tmpfs: { '/tmp': 'rw,noexec,nosuid,nodev,size=64m' } } : {}),
    ...(s.runtime ? { Runtime: s.runtime } : {}),
    ...(s.dns?.length ? { Dns: [...s.dns] } : {}),
  };
  return {
    Image: spec.image,
    // Entrypoint set explicitly: an image's ENTRYPOINT must not replace the idle PID 1.
    Entrypoint: ['sleep'],
    Cmd: ['infinity'],
    User: s.user ?? '0',
    WorkingDir: WORKSPACE,
    Env: Object.entries(spec.env ?? {}).map(([k, v]) => `${k}=${v}`),
    Labels: labels,
    HostConfig: host,
    AttachStdin: false,
    AttachStdout: false,
    AttachStderr: false,
    Tty: false,
    OpenStdin: false,
  };
}
