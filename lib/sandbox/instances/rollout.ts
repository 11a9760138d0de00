// A config's skill snapshot reaching its running sandboxes. A sandbox is stale when a snapshot is
// active and the sandbox runs another image (rollout-standing.ts). Recycling starts the replacement
// from the config's current spec first and removes the old sandbox after, so a replacement that
// cannot start leaves the old one as it was. Sandbox ids come from the engine, so a recycled
// sandbox has a new id; the replacement carries the old id in a label, so callers that still hold
// the old id can be pointed at it.
import type { AppDb } from '@/db/client';
import { listImages } from '@/lib/sandbox/images/images';
import { BUNDLE_LABEL, isMaintenanceLabels, NO_BUNDLE } from '@/lib/sandbox/images/snapshot-names';
import { AppError, isAppError } from '../../core/errors';
import { describeError, logger } from '../../core/logger';
import type { SecretBox } from '../../secrets/crypto';
import { type CollectContext, type CollectDeps, collectOutput } from '../artifacts/collect';
import type { SandboxBackend, SandboxInfo } from '../backend';
import { CONFIG_LABEL } from '../config/in-use';
import type { SkillRollout } from '../config/schema';
import type { ConfigRow } from '../config/view';
import { loadEnvFor } from '../env/store';
import { currentSandboxSpec } from '../factory';
import { type ImageStanding, imageStanding, type RecordedImage, staleReason } from './rollout-standing';
import { createPrepared, type StartPreparer } from './start-prep';

export { type ImageStanding, imageStanding, type RecordedImage, staleReason } from './rollout-standing';

/** On a sandbox started by a recycle: the backend id of the sandbox it replaced. */
export const RECYCLED_FROM_LABEL = 'skilldock.recycled-from';

export interface Resolved {
  row: ConfigRow;
  backend: SandboxBackend;
  sandbox: SandboxInfo;
}

/** Stored configs from before the setting existed count as the default. */
export function rolloutOf(config: Record<string, unknown>): SkillRollout {
  return config.skillRollout === 'new_session' ? 'new_session' : 'next_turn';
}

/** The generations a config's sandboxes can run: Docker snapshot images, or E2B/Cube bundles. */
export async function recordedImages(db: AppDb, row: Pick<ConfigRow, 'id' | 'backend'>): Promise<RecordedImage[]> {
  return (await listImages(db, row.id)).map((i) => ({ generation: i.generation, imageId: i.imageId, state: i.state }));
}

/** What a sandbox runs: a Docker sandbox its engine image, a bundle sandbox the bundle its start labelled it with. */
export function runningImage(row: Pick<ConfigRow, 'backend'>, sandbox: SandboxInfo): string | undefined {
  return row.backend === 'docker' ? sandbox.imageId : (sandbox.labels[BUNDLE_LABEL] ?? NO_BUNDLE);
}

export async function standingOf(db: AppDb, row: Pick<ConfigRow, 'id' | 'backend'>, sandbox: SandboxInfo): Promise<ImageStanding> {
  return imageStanding(runningImage(row, sandbox), await recordedImages(db, row));
}

/** Whether this use of the sandbox must recycle it first (stale, and the config rolls out at the next use). */
export async function dueForRecycle(db: AppDb, r: Resolved): Promise<ImageStanding | null> {
  if (rolloutOf(r.row.config) !== 'next_turn') return null;
  const standing = await standingOf(db, r.row, r.sandbox);
  return standing.stale ? standing : null;
}

/** The refusal a terminal open gets on a sandbox that must be recycled first. */
export function recycleFirst(standing: ImageStanding): AppError {
  return new AppError('invalid_state', `This sandbox runs an outdated skill image (${staleReason(standing)}); recycle it first, then open the terminal.`, {
    hint: 'Its config recycles sandboxes at their next use. Recycle it from the sandbox list (its /workspace is lost), or set the config’s skill rollout to new_session.',
    details: { ...standing, reason: 'recycle_first' },
  });
}

/** One recycle per sandbox at a time in this service (`inflight`: its locks' recycles): concurrent callers share its result. */
export function recycleOnce(inflight: Map<string, Promise<SandboxInfo>>, key: string, fn: () => Promise<SandboxInfo>): Promise<SandboxInfo> {
  const running = inflight.get(key);
  if (running) return running;
  const p = fn().finally(() => inflight.delete(key));
  inflight.set(key, p);
  return p;
}

/**
 * Starts the replacement with `labels` (config-level env only: a personal env of whoever caused the
 * recycle is not baked into a sandbox someone else started; execs and terminals get theirs per call).
 * The old sandbox's output is collected after its terminals end and before it is removed.
 */
export async function replaceSandbox(
  deps: CollectDeps & { db: AppDb; secrets: SecretBox; prepareStart?: StartPreparer },
  r: Resolved,
  labels: Record<string, string>,
  opts: { beforeRemove?: () => Promise<unknown>; collect: Omit<CollectContext, 'replacedBy'> },
): Promise<SandboxInfo> {
  const spec = await currentSandboxSpec(deps.db, r.row, deps.secrets);
  const { env } = await loadEnvFor(deps.db, deps.secrets, { principal: null, sandboxConfig: { id: r.row.id } });
  let fresh: SandboxInfo;
  try {
    fresh = await createPrepared(r.backend, r.row, { ...spec, env, labels: { ...labels, [RECYCLED_FROM_LABEL]: r.sandbox.id } }, deps.prepareStart);
  } catch (e) {
    const why = e instanceof Error ? e.message : String(e);
    throw new AppError(isAppError(e) ? e.code : 'sandbox_error', `The replacement sandbox could not start: ${why}`, {
      hint: 'The old sandbox was left as it was. Fix what the message says (for a missing snapshot image, rebuild it from the config page), then recycle again.',
      cause: e,
    });
  }
  try {
    await opts.beforeRemove?.();
    await collectOutput(deps, r, { ...opts.collect, replacedBy: `${r.row.id}~${fresh.id}` });
    await r.backend.remove(r.sandbox.id);
  } catch (e) {
    // The replacement serves; the old one stays listed as stale and can be removed by hand.
    logger.warn('a recycled sandbox could not be removed', { config: r.row.id, sandbox: r.sandbox.id, err: describeError(e) });
  }
  return fresh;
}

/** The sandbox that replaced `sandboxId` in a recycle, if one is still there. */
export async function successorOf(backend: SandboxBackend, configId: string, sandboxId: string): Promise<SandboxInfo | null> {
  const found = await backend.list({ [CONFIG_LABEL]: configId, [RECYCLED_FROM_LABEL]: sandboxId });
  return found.find((s) => !isMaintenanceLabels(s.labels)) ?? null;
}
