// Garbage collection of superseded snapshot images: once replaced for longer than the grace period
// and used by no container on their engine (running or stopped, which pins it too), the image's
// name is removed from the engine and its record marked deleted. Layers a newer generation is
// built on stay with that generation; only the name and what nothing else shares go.
import type { AppDb } from '@/db/client';
import { recordAudit } from '../../audit/audit';
import { systemActor } from '../../auth/actor';
import { logger } from '../../core/logger';
import { loadRow } from '../../sandbox/config/store';
import { type DockerConnection, statusOf } from '../../sandbox/docker/connection';
import { collectableImages, markImageDeleted, type SandboxImage } from '../../sandbox/images/images';
import { isBundleRef } from '../../sandbox/images/snapshot-names';
import type { InstanceDeps } from '../../sandbox/instances/service';
import { dockerConnOf } from './image-health';

export const GC_GRACE_MS = 24 * 60 * 60_000;
export const GC_EVERY_MS = 60 * 60_000;

export interface CollectOptions {
  now?: Date;
  /** How long an image stays after it was superseded (default GC_GRACE_MS). */
  graceMs?: number;
  configId?: string;
}

interface Collected {
  id: string;
  configId: string;
  generation: number;
  ref: string;
}

export interface CollectResult {
  deleted: Collected[];
  kept: (Collected & { reason: string })[];
  errors: { configId: string; ref?: string; error: string }[];
}

const view = (i: SandboxImage): Collected => ({ id: i.id, configId: i.configId, generation: i.generation, ref: i.plannedRef });

/** What every container on the engine is started from, by id and by name. */
async function imagesInUse(conn: DockerConnection): Promise<Set<string>> {
  const used = new Set<string>();
  for (const c of await conn.api.listContainers({ all: true })) {
    used.add(c.ImageID);
    used.add(c.Image);
  }
  return used;
}

/** Removes the image's name; true when the engine no longer has our image under it. */
async function removeRef(conn: DockerConnection, image: SandboxImage): Promise<'gone' | 'in_use' | 'other'> {
  let id: string;
  try {
    id = (await conn.api.getImage(image.plannedRef).inspect()).Id;
  } catch (e) {
    if (statusOf(e) === 404) return 'gone';
    throw e;
  }
  // The name now points at an image Skilldock did not commit: leave it, ours is already gone.
  if (image.imageId && id !== image.imageId) return 'other';
  try {
    await conn.api.getImage(image.plannedRef).remove();
    return 'gone';
  } catch (e) {
    if (statusOf(e) === 404) return 'gone';
    if (statusOf(e) === 409) return 'in_use';
    throw e;
  }
}

export async function collectImages(deps: InstanceDeps, opts: CollectOptions = {}): Promise<CollectResult> {
  const db: AppDb = deps.db;
  const result: CollectResult = { deleted: [], kept: [], errors: [] };
  const due = await collectableImages(db, { now: opts.now ?? new Date(), graceMs: opts.graceMs ?? GC_GRACE_MS, configId: opts.configId });
  const byConfig = new Map<string, SandboxImage[]>();
  for (const i of due) byConfig.set(i.configId, [...(byConfig.get(i.configId) ?? []), i]);
  const usedByEngine = new Map<string, Set<string>>();
  for (const [configId, images] of byConfig) {
    try {
      const conn = dockerConnOf(deps, await loadRow(db, configId));
      if (!conn) {
        // A bundle holds nothing on an engine: past its grace its record simply goes.
        for (const image of images.filter((i) => isBundleRef(i.plannedRef))) {
          await markImageDeleted(db, image.id);
          result.deleted.push(view(image));
        }
        continue;
      }
      let used = usedByEngine.get(conn.endpoint);
      if (!used) {
        used = await imagesInUse(conn);
        usedByEngine.set(conn.endpoint, used);
      }
      for (const image of images) {
        if ((image.imageId && used.has(image.imageId)) || used.has(image.plannedRef)) {
          result.kept.push({ ...view(image), reason: 'a container uses it' });
          continue;
        }
        try {
          const r = await removeRef(conn, image);
          if (r === 'in_use') {
            result.kept.push({ ...view(image), reason: 'a container started from it meanwhile' });
            continue;
          }
          await markImageDeleted(db, image.id);
          result.deleted.push(view(image));
        } catch (e) {
          result.errors.push({ configId, ref: image.plannedRef, error: String(e) });
        }
      }
    } catch (e) {
      result.errors.push({ configId, error: String(e) });
    }
  }
  if (result.deleted.length)
    await recordAudit(db, systemActor, {
      action: 'sandbox.image.collect',
      targetType: 'sandbox_images',
      targetId: [...new Set(result.deleted.map((d) => d.configId))].join(',').slice(0, 200),
      after: { deleted: result.deleted.map((d) => d.ref) },
    });
  return result;
}

/** Collects every hour (never two passes at once); returns the stop function. */
export function startImageCollector(deps: InstanceDeps, opts: { everyMs?: number; graceMs?: number } = {}): () => void {
  let running = false;
  const tick = () => {
    if (running) return;
    running = true;
    collectImages(deps, { graceMs: opts.graceMs })
      .then((r) => {
        if (r.deleted.length) logger.info('collected superseded snapshot images', { deleted: r.deleted.map((d) => d.ref) });
        for (const e of r.errors) logger.warn('snapshot image collection failed', e);
      })
      .catch((e) => logger.warn('snapshot image collection failed', { error: String(e) }))
      .finally(() => (running = false));
  };
  const timer = setInterval(tick, opts.everyMs ?? GC_EVERY_MS);
  timer.unref();
  return () => clearInterval(timer);
}
