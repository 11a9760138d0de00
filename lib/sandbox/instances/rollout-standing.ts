// Whether a running sandbox is on its config's active skill snapshot. Pure (no imports), so the
// console can word the same tooltip the API explains.

/** What a config's image records say about one generation. */
export interface RecordedImage {
  generation: number;
  /** The engine's image id (a bundle's digest on E2B/Cube); null while the generation is only planned. */
  imageId: string | null;
  state: 'building' | 'active' | 'superseded' | 'deleted';
}

export interface ImageStanding {
  /** The snapshot generation the sandbox was started from; null for the base image (or unknown). */
  imageGeneration: number | null;
  /** The generation new sandboxes start from now; null while the config has no snapshot. */
  activeGeneration: number | null;
  /** An active snapshot exists and the sandbox runs another image. */
  stale: boolean;
}

/**
 * Compares by engine image id, not by name: a snapshot rebuilt under the same name is another image.
 * An E2B/Cube sandbox is compared by the bundle digest its start labelled it with.
 */
export function imageStanding(imageId: string | null | undefined, images: readonly RecordedImage[]): ImageStanding {
  const active = images.find((i) => i.state === 'active' && i.imageId);
  const own = imageId ? images.find((i) => i.imageId === imageId && i.state !== 'building') : undefined;
  return {
    imageGeneration: own?.generation ?? null,
    activeGeneration: active?.generation ?? null,
    stale: !!imageId && !!active && active.imageId !== imageId,
  };
}

/** "started from generation 2; generation 3 is active", or null when the sandbox is current. */
export function staleReason(s: Pick<ImageStanding, 'imageGeneration' | 'activeGeneration' | 'stale'>): string | null {
  if (!s.stale || s.activeGeneration === null) return null;
  const from = s.imageGeneration === null ? 'the base image' : `generation ${s.imageGeneration}`;
  return `started from ${from}; generation ${s.activeGeneration} is active`;
}
