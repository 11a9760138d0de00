import { eq } from 'drizzle-orm';
import type { AppDb } from '@/db/client';
import { sandboxConfigs } from '@/db/schema';
import { isMaintenanceLabels } from '@/lib/sandbox/images/snapshot-names';
import { recordAudit } from '../../audit/audit';
import type { Actor } from '../../auth/actor';
import { AppError, hasCode } from '../../core/errors';
import type { SecretBox } from '../../secrets/crypto';
import { type CollectDeps, collectOutput } from '../artifacts/collect';
import type { ExecResult, SandboxBackend, SandboxInfo } from '../backend';
import { CONFIG_LABEL } from '../config/in-use';
import { loadRow } from '../config/store';
import type { ConfigRow } from '../config/view';
import { loadEnvFor } from '../env/store';
import { type BackendFactoryDeps, backendForConfig, currentSandboxSpec } from '../factory';
import type { InstanceLocks } from './locks';
import { checkAccess, PRINCIPAL_LABEL, type Principal, personPrincipal, principalOf } from './principal';
import {
  dueForRecycle,
  type ImageStanding,
  imageStanding,
  type Resolved,
  recordedImages,
  recycleOnce,
  replaceSandbox,
  runningImage,
  standingOf,
  successorOf,
} from './rollout';
import { createPrepared, type StartPreparer } from './start-prep';

export const STARTED_BY_LABEL = 'skilldock.started-by';
const ID_RE = /^([A-Za-z0-9_-]{1,64})~([A-Za-z0-9][A-Za-z0-9_.-]{0,127})$/;

export interface InstanceDeps extends BackendFactoryDeps, CollectDeps {
  db: AppDb;
  secrets: SecretBox;
  /** One backend per config row version, so clients (and their sockets) are reused. */
  backendCache?: Map<string, { updatedAt: number; backend: SandboxBackend }>;
  /** Puts in what a new sandbox needs at start (a bundle backend's installed skills). */
  prepareStart?: StartPreparer;
  /** A lock every replica sharing the database respects (database.withLock); this process's alone when absent. */
  lock?: <T>(key: number, fn: () => Promise<T>) => Promise<T>;
  /** What this service serialises in-process: keyed starts, the slots of locked starts, recycles in flight. */
  locks: InstanceLocks;
}

export interface InstanceView {
  id: string;
  configId: string;
  configName: string;
  backend: ConfigRow['backend'];
  sandboxId: string;
  image: string;
  state: SandboxInfo['state'];
  createdAt: string;
  lastActivityAt: string | null;
  startedBy: string | null;
  /** Whose sandbox it is (`agent:<id>`, `user:<id>`, `system`); null when started before owners were recorded. */
  principal: Principal | null;
  /** The skill snapshot generation it runs; null for the config's base image (or a backend without snapshots). */
  imageGeneration: number | null;
  /** The generation new sandboxes of its config start from; null while the config has none. */
  activeImageGeneration: number | null;
  /** A newer snapshot is active: recycle it to get it (a next_turn config does so at its next use). */
  stale: boolean;
}

export function instanceId(configId: string, sandboxId: string): string {
  return `${configId}~${sandboxId}`;
}

function parseInstanceId(id: string): { configId: string; sandboxId: string } {
  const m = ID_RE.exec(id);
  if (!m)
    throw new AppError('validation', 'Not a sandbox id (expected "<config id>~<sandbox id>").', { issues: [{ path: 'id', message: 'Not a sandbox id.' }] });
  return { configId: m[1], sandboxId: m[2] };
}

export function backendFor(deps: InstanceDeps, row: ConfigRow): SandboxBackend {
  const cache = deps.backendCache;
  const stamp = row.updatedAt.getTime();
  const hit = cache?.get(row.id);
  if (hit && hit.updatedAt === stamp) return hit.backend;
  const backend = backendForConfig(row, deps);
  cache?.set(row.id, { updatedAt: stamp, backend });
  return backend;
}

function view(row: ConfigRow, s: SandboxInfo, standing: ImageStanding): InstanceView {
  return {
    id: instanceId(row.id, s.id),
    configId: row.id,
    configName: row.name,
    backend: row.backend,
    sandboxId: s.id,
    image: s.image,
    state: s.state,
    createdAt: s.createdAt.toISOString(),
    lastActivityAt: s.lastActivityAt ? s.lastActivityAt.toISOString() : null,
    startedBy: s.labels[STARTED_BY_LABEL] ?? null,
    principal: principalOf(s.labels),
    imageGeneration: standing.imageGeneration,
    activeImageGeneration: standing.activeGeneration,
    stale: standing.stale,
  };
}

export async function resolve(deps: InstanceDeps, id: string): Promise<{ row: ConfigRow; backend: SandboxBackend; sandbox: SandboxInfo }> {
  const { configId, sandboxId } = parseInstanceId(id);
  const row = await loadRow(deps.db, configId).catch(() => {
    throw new AppError('not_found', 'This sandbox was not found (its config no longer exists).');
  });
  const backend = backendFor(deps, row);
  const sandbox = await backend.get(sandboxId);
  // A skill install's maintenance container carries the config label too, but is never an instance.
  if (!sandbox || sandbox.labels[CONFIG_LABEL] !== configId || isMaintenanceLabels(sandbox.labels))
    throw new AppError('not_found', 'This sandbox was not found; it may have been removed or swept.');
  return { row, backend, sandbox };
}

/**
 * Starts a sandbox from a config whose full check has passed, for one principal (the caller by
 * default). Its environment holds nothing of anyone's: variables are given to each exec.
 */
export async function startInstance(deps: InstanceDeps, actor: Actor, configId: string, principal: Principal = personPrincipal(actor)): Promise<InstanceView> {
  const row = await loadRow(deps.db, configId);
  if (!row.enabled)
    throw new AppError('invalid_state', `The sandbox config "${row.name}" is disabled until its full check passes.`, {
      hint: 'Run the full check on the config page, fix what it reports, then start a sandbox.',
    });
  const backend = backendFor(deps, row);
  const spec = await currentSandboxSpec(deps.db, row, deps.secrets);
  const labels: Record<string, string> = { [CONFIG_LABEL]: row.id, [STARTED_BY_LABEL]: actor.label.slice(0, 200), [PRINCIPAL_LABEL]: principal };
  const sandbox = await createPrepared(backend, row, { ...spec, labels }, deps.prepareStart);
  const v = view(row, sandbox, await standingOf(deps.db, row, sandbox));
  await recordAudit(deps.db, actor, {
    action: 'sandbox.instance.start',
    targetType: 'sandbox',
    targetId: v.id,
    after: { configId: row.id, image: v.image, principal },
  });
  return v;
}

/** The running sandboxes of one config that belong to one principal, newest first. */
export async function runningFor(deps: InstanceDeps, configId: string, principal: Principal): Promise<string[]> {
  const row = await loadRow(deps.db, configId);
  const found = await backendFor(deps, row).list({ [CONFIG_LABEL]: row.id, [PRINCIPAL_LABEL]: principal });
  return found
    .filter((s) => s.state === 'running' && !isMaintenanceLabels(s.labels))
    .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime())
    .map((s) => instanceId(row.id, s.id));
}

export interface InstanceList {
  items: InstanceView[];
  /** Configs whose backend could not be asked, with the reason: their instances are unknown. */
  problems: { configId: string; configName: string; message: string }[];
}

export async function listInstances(deps: InstanceDeps, filter: { configId?: string } = {}): Promise<InstanceList> {
  const rows = filter.configId ? [await loadRow(deps.db, filter.configId)] : await deps.db.select().from(sandboxConfigs).orderBy(sandboxConfigs.name);
  const items: InstanceView[] = [];
  const problems: InstanceList['problems'] = [];
  await Promise.all(
    rows.map(async (row) => {
      try {
        const [found, images] = await Promise.all([backendFor(deps, row).list({ [CONFIG_LABEL]: row.id }), recordedImages(deps.db, row)]);
        items.push(...found.filter((s) => !isMaintenanceLabels(s.labels)).map((s) => view(row, s, imageStanding(runningImage(row, s), images))));
      } catch (e) {
        problems.push({ configId: row.id, configName: row.name, message: (e as Error).message });
      }
    }),
  );
  items.sort((a, b) => b.createdAt.localeCompare(a.createdAt));
  return { items, problems };
}

export async function getInstance(deps: InstanceDeps, id: string): Promise<InstanceView> {
  const { row, sandbox } = await resolve(deps, id);
  return view(row, sandbox, await standingOf(deps.db, row, sandbox));
}

export async function removeInstance(deps: InstanceDeps, actor: Actor, id: string): Promise<{ removed: true }> {
  const r = await resolve(deps, id);
  const { row, backend, sandbox } = r;
  await collectOutput(deps, r, { trigger: 'remove', actor });
  await backend.remove(sandbox.id);
  await recordAudit(deps.db, actor, {
    action: 'sandbox.instance.remove',
    targetType: 'sandbox',
    targetId: id,
    before: { configId: row.id, image: sandbox.image },
  });
  return { removed: true };
}

export interface ExecInput {
  argv: string[];
  timeoutMs?: number;
  stdin?: string;
  /** Run in a sandbox that is not the caller's own, on purpose (without their personal variables). */
  shared?: boolean;
}

export interface RecycleHooks {
  /** Runs once the replacement is up, before the old sandbox is removed (its terminals end "sandbox gone"). */
  beforeRemove?: (oldInstanceId: string) => Promise<unknown>;
}

/** Replaces the sandbox with a fresh one from its config's current image; its /workspace and processes are lost. */
async function recycleResolved(deps: InstanceDeps, actor: Actor, r: Resolved, reason: 'manual' | 'next_turn', hooks: RecycleHooks): Promise<Resolved> {
  const from = instanceId(r.row.id, r.sandbox.id);
  const fresh = await recycleOnce(deps.locks.recycles, from, async () => {
    // A caller that resolved the sandbox before another recycle removed it gets that recycle's result.
    if (!(await r.backend.get(r.sandbox.id))) {
      const next = await successorOf(r.backend, r.row.id, r.sandbox.id);
      if (next) return next;
      throw new AppError('not_found', 'This sandbox was not found; it may have been removed or swept.');
    }
    const before = await standingOf(deps.db, r.row, r.sandbox);
    const labels: Record<string, string> = {
      [CONFIG_LABEL]: r.row.id,
      [STARTED_BY_LABEL]: r.sandbox.labels[STARTED_BY_LABEL] ?? actor.label.slice(0, 200),
      // A replacement belongs to whoever the sandbox it replaces belonged to.
      [PRINCIPAL_LABEL]: principalOf(r.sandbox.labels) ?? personPrincipal(actor),
    };
    const s = await replaceSandbox(deps, r, labels, {
      beforeRemove: () => hooks.beforeRemove?.(from) ?? Promise.resolve(),
      collect: { trigger: reason === 'manual' ? 'recycle' : 'next_turn', actor },
    });
    const after = await standingOf(deps.db, r.row, s);
    await recordAudit(deps.db, actor, {
      action: 'sandbox.instance.recycle',
      targetType: 'sandbox',
      targetId: from,
      before: { configId: r.row.id, image: r.sandbox.image, imageGeneration: before.imageGeneration },
      after: { id: instanceId(r.row.id, s.id), image: s.image, imageGeneration: after.imageGeneration, reason },
    });
    return s;
  });
  return { ...r, sandbox: fresh };
}

export async function recycleInstance(
  deps: InstanceDeps,
  actor: Actor,
  id: string,
  hooks: RecycleHooks = {},
): Promise<{ from: string; instance: InstanceView }> {
  const r = await recycleResolved(deps, actor, await resolve(deps, id), 'manual', hooks);
  return { from: id, instance: view(r.row, r.sandbox, await standingOf(deps.db, r.row, r.sandbox)) };
}

/** Like resolve, but an id a recycle replaced leads to its replacement. */
async function resolveForUse(deps: InstanceDeps, id: string): Promise<Resolved & { followed: boolean }> {
  try {
    return { ...(await resolve(deps, id)), followed: false };
  } catch (e) {
    if (!hasCode(e, 'not_found')) throw e;
    const { configId, sandboxId } = parseInstanceId(id);
    const row = await loadRow(deps.db, configId).catch(() => Promise.reject(e));
    const backend = backendFor(deps, row);
    const next = await successorOf(backend, row.id, sandboxId).catch(() => null);
    if (!next) throw e;
    return { row, backend, sandbox: next, followed: true };
  }
}

/** `recycled`: the call ran in a replacement (a next_turn recycle, now or earlier); use `to` from now on. */
export type InstanceExecResult = ExecResult & { recycled?: { from: string; to: string } };

export async function execInInstance(deps: InstanceDeps, actor: Actor, id: string, input: ExecInput, hooks: RecycleHooks = {}): Promise<InstanceExecResult> {
  let r = await resolveForUse(deps, id);
  const access = checkAccess(actor, r.sandbox.labels, input.shared);
  if (await dueForRecycle(deps.db, r)) r = { ...(await recycleResolved(deps, actor, r, 'next_turn', hooks)), followed: true };
  const { row, backend, sandbox } = r;
  const ranIn = instanceId(row.id, sandbox.id);
  // Personal variables go only into the caller's own sandbox.
  const user = access.own && actor.userId ? { id: actor.userId } : null;
  const { env } = await loadEnvFor(deps.db, deps.secrets, { principal: user, sandboxConfig: { id: row.id } });
  const out = await backend.exec(sandbox.id, {
    argv: input.argv,
    env,
    stdin: input.stdin,
    timeoutMs: input.timeoutMs ?? ((row.config as { defaultTimeoutSec?: number }).defaultTimeoutSec ?? 60) * 1000,
    maxOutputBytes: 1024 * 1024,
  });
  await recordAudit(deps.db, actor, {
    action: 'sandbox.instance.exec',
    targetType: 'sandbox',
    targetId: ranIn,
    after: {
      argv: input.argv.map((a) => a.slice(0, 200)).slice(0, 50),
      exitCode: out.exitCode,
      timedOut: out.timedOut,
      ...(access.own ? {} : { shared: true, principal: access.principal }),
      ...(r.followed ? { recycledFrom: id } : {}),
    },
  });
  return r.followed ? { ...out, recycled: { from: id, to: ranIn } } : out;
}

/** Lister for the config in-use inventory. */
export function instanceLister(deps: InstanceDeps) {
  return async (configId: string, labels: Record<string, string>) => {
    const [row] = await deps.db.select().from(sandboxConfigs).where(eq(sandboxConfigs.id, configId));
    if (!row) return [];
    const found = await backendFor(deps, row).list(labels);
    return found.map((s) => ({ id: instanceId(row.id, s.id), state: s.state, createdAt: s.createdAt.toISOString() }));
  };
}
