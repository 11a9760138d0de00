// A config's generations' disk use as its engine reports it (image inspect, and /system/df only when
// the inspected sizes cannot place a shared stretch of layers). Bundles (E2B, Cube) share nothing,
// so their recorded sizes simply add up.
import { type DockerConnection, statusOf, toAppError } from '../../sandbox/docker/connection';
import type { SandboxImage } from '../../sandbox/images/images';
import type { ImageDiskOut } from '../schema';
import { type DfImage, type GenerationOnEngine, type InspectedImage, imageDiskUse } from './disk';

type ImageRecord = Pick<SandboxImage, 'generation' | 'state' | 'imageId' | 'plannedRef' | 'sizeBytes'>;

const onDisk = (i: ImageRecord) => i.state === 'active' || i.state === 'superseded';

async function inspectOrNull(conn: DockerConnection, ref: string): Promise<InspectedImage | null> {
  try {
    return await conn.api.getImage(ref).inspect();
  } catch (e) {
    if (statusOf(e) === 404) return null;
    throw toAppError(e, conn.endpoint, `inspect image ${ref}`);
  }
}

/** The recorded sizes of bundle generations: each is a file of its own. */
export function bundleDiskUse(images: ImageRecord[]): ImageDiskOut {
  const kept = images.filter(onDisk);
  return {
    source: 'records',
    generations: kept.length,
    bytes: kept.reduce((n, i) => n + (i.sizeBytes ?? 0), 0),
    baseBytes: 0,
    exact: true,
    perGeneration: kept.map((i) => ({ generation: i.generation, ownBytes: i.sizeBytes ?? 0 })).sort((a, b) => a.generation - b.generation),
    error: null,
  };
}

/** Asks the engine for each kept generation's image and the base image; an unreachable engine is said, not guessed. */
export async function engineDiskUse(conn: DockerConnection, baseRef: string | null, images: ImageRecord[]): Promise<ImageDiskOut> {
  try {
    const generations: GenerationOnEngine[] = [];
    for (const i of images.filter(onDisk)) {
      const image = await inspectOrNull(conn, i.imageId ?? i.plannedRef);
      if (image) generations.push({ generation: i.generation, image });
    }
    const base = baseRef ? await inspectOrNull(conn, baseRef) : null;
    let use = imageDiskUse({ base, generations });
    if (!use.exact) {
      const df = (await conn.api.df().catch((e: unknown) => Promise.reject(toAppError(e, conn.endpoint, 'read the disk usage')))) as { Images?: DfImage[] };
      use = imageDiskUse({ base, generations, df: df.Images ?? [] });
    }
    return { source: 'engine', ...use, error: null };
  } catch (e) {
    return {
      source: 'engine',
      generations: 0,
      bytes: null,
      baseBytes: 0,
      exact: false,
      perGeneration: [],
      error: e instanceof Error ? e.message : String(e),
    };
  }
}
