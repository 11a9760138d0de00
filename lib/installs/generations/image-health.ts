// Whether a config's active snapshot image is still on its engine and how close it is to the
// engine's layer limit. A snapshot removed behind Skilldock's back (an image prune, say) is found
// here, so the config is offered a rebuild from base instead of sandboxes failing to start.
import { loadRow } from '../../sandbox/config/store';
import type { ConfigRow } from '../../sandbox/config/view';
import type { DockerBackend } from '../../sandbox/docker/backend';
import { type DockerConnection, statusOf, toAppError } from '../../sandbox/docker/connection';
import { activeImage, type SandboxImage } from '../../sandbox/images/images';
import { backendFor, type InstanceDeps } from '../../sandbox/instances/service';

/** The engine refuses images deeper than 127 layers; this is what Skilldock reports as the limit. */
export const LAYER_LIMIT = 125;
/** From this many layers on, the next build starts from the base image instead of stacking. */
export const LAYER_REBUILD_AT = 100;

export type ImageHealthState = 'ok' | 'missing' | 'no_snapshot' | 'layers_high' | 'bundle';

export interface ImageHealth {
  state: ImageHealthState;
  active: {
    generation: number;
    ref: string;
    imageId: string | null;
    sizeBytes: number | null;
    layers: number | null;
    createdAt: string;
  } | null;
  layerLimit: number;
  message: string;
}

export interface SnapshotOnEngine {
  present: boolean;
  /** Why it counts as missing (the ref is gone, or names another image). */
  problem: string | null;
  imageId: string | null;
  layers: number | null;
  sizeBytes: number | null;
}

async function inspectRef(conn: DockerConnection, ref: string) {
  try {
    return await conn.api.getImage(ref).inspect();
  } catch (e) {
    if (statusOf(e) === 404) return null;
    throw toAppError(e, conn.endpoint, `inspect image ${ref}`);
  }
}

/** The active image as the engine sees it: missing when its ref or its id is gone. */
export async function inspectSnapshot(conn: DockerConnection, image: SandboxImage): Promise<SnapshotOnEngine> {
  const byRef = await inspectRef(conn, image.plannedRef);
  if (!byRef) return { present: false, problem: `${image.plannedRef} is not on the engine`, imageId: null, layers: null, sizeBytes: null };
  const fact = { imageId: byRef.Id, layers: byRef.RootFS?.Layers?.length ?? 0, sizeBytes: byRef.Size };
  if (image.imageId && byRef.Id !== image.imageId) {
    const byId = await inspectRef(conn, image.imageId);
    const what = byId ? 'names another image' : 'names another image and the committed one is gone';
    return { present: false, problem: `${image.plannedRef} ${what} (${byRef.Id.slice(0, 19)}…)`, ...fact };
  }
  return { present: true, problem: null, ...fact };
}

export function dockerConnOf(deps: InstanceDeps, row: ConfigRow): DockerConnection | null {
  if (row.backend !== 'docker') return null;
  return (backendFor(deps, row) as DockerBackend).conn;
}

/** The health of a config's active snapshot image, from its record and its engine. */
export async function imageHealth(deps: InstanceDeps, configId: string): Promise<ImageHealth> {
  const row = await loadRow(deps.db, configId);
  const base = { layerLimit: LAYER_LIMIT };
  const active = await activeImage(deps.db, configId);
  if (!active) {
    const message =
      row.backend === 'docker'
        ? 'No skill snapshot yet: new sandboxes start from the base image.'
        : `No skills installed yet. A ${row.backend} template cannot be committed to, so installed skills are put into each new sandbox at start.`;
    return { ...base, state: 'no_snapshot', active: null, message };
  }
  const conn = dockerConnOf(deps, row);
  const view = {
    generation: active.generation,
    ref: active.plannedRef,
    imageId: active.imageId,
    sizeBytes: active.sizeBytes,
    layers: active.layers,
    createdAt: active.createdAt.toISOString(),
  };
  if (!conn)
    return {
      ...base,
      state: 'bundle',
      active: view,
      message: `Generation ${active.generation} is a bundle of ${active.skills.length} skill(s): ${row.backend} has no snapshot images, so each new sandbox gets them installed when it starts.`,
    };
  const seen = await inspectSnapshot(conn, active);
  if (!seen.present)
    return {
      ...base,
      state: 'missing',
      active: view,
      message: `The active image of generation ${active.generation} is missing: ${seen.problem}. Rebuild from base to reinstall its ${active.skills.length} skill(s).`,
    };
  const live = { ...view, imageId: seen.imageId, sizeBytes: seen.sizeBytes, layers: seen.layers };
  if ((seen.layers ?? 0) >= LAYER_REBUILD_AT)
    return {
      ...base,
      state: 'layers_high',
      active: live,
      message: `Generation ${active.generation} has ${seen.layers} layers (limit ${LAYER_LIMIT}); the next install rebuilds from base.`,
    };
  return { ...base, state: 'ok', active: live, message: `Generation ${active.generation} is on the engine (${seen.layers} layers).` };
}
