// The disk a config's snapshot generations really take. Each generation's image `Size` counts every
// layer under it, the base image's included, and a generation committed on top of another holds
// all of that one's layers too: adding the sizes counts shared layers once per image. Docker stores
// a layer once per chain (the same layers in the same order below it), so the honest figure is the
// sum over the distinct layers of all generations.
//
// Docker gives no size per layer, but it gives the cumulative size at known points of a chain: an
// image's `Size` covers its whole `RootFS.Layers`, and `/system/df`'s `SharedSize` covers the part
// of an image's chain that another image also uses (a shared layer's whole chain is shared). Each
// such point is an "anchor"; the bytes between two anchors of one chain belong to that stretch once.

/** What `GET /images/{id}/json` answers, the fields used here. */
export interface InspectedImage {
  Id: string;
  Size: number;
  RootFS?: { Type?: string; Layers?: string[] };
}

/** One entry of `GET /system/df`'s `Images`, the fields used here (`SharedSize` is -1 when not computed). */
export interface DfImage {
  Id: string;
  Size: number;
  SharedSize: number;
}

export interface GenerationOnEngine {
  generation: number;
  image: InspectedImage;
}

export interface GenerationDisk {
  generation: number;
  /** Bytes of the layers this generation adds over the image it stands on (the base or an earlier generation). */
  ownBytes: number;
}

export interface ImageDiskUse {
  /** Generations whose image is on the engine. */
  generations: number;
  /** The distinct layers of those generations, each counted once; the base image's layers included. */
  bytes: number;
  /** Of `bytes`, the base image's own layers: on disk for the base anyway, shared by every generation built on it. */
  baseBytes: number;
  perGeneration: GenerationDisk[];
  /**
   * False when two generations share layers above the last point whose size the engine reported
   * (no image ends there and `/system/df` was not given): those layers are counted once per chain.
   */
  exact: boolean;
}

interface Chain {
  size: number;
  /** keys[d] names the chain's first d+1 layers. */
  keys: string[];
}

function chainOf(image: InspectedImage): Chain {
  const layers = image.RootFS?.Layers ?? [];
  const keys: string[] = [];
  let key = '';
  for (const l of layers) {
    key = key ? `${key}>${l}` : l;
    keys.push(key);
  }
  return { size: image.Size, keys };
}

/** How many layers two chains have in common from the bottom. */
function commonDepth(a: Chain, b: Chain): number {
  let d = 0;
  while (d < a.keys.length && d < b.keys.length && a.keys[d] === b.keys[d]) d++;
  return d;
}

/** The cumulative size at the deepest anchor strictly below `depth` on `chain` (0 when none). */
function below(anchors: Map<string, number>, chain: Chain, depth: number): number {
  for (let d = depth - 1; d >= 1; d--) {
    const size = anchors.get(chain.keys[d - 1]);
    if (size !== undefined) return size;
  }
  return 0;
}

/**
 * The disk use of a config's generations from the engine's own data: `inspect` of each generation's
 * image and of the base image, and optionally `/system/df`'s images (their `SharedSize` marks where
 * two generations part when no image ends there).
 */
export function imageDiskUse(input: { base: InspectedImage | null; generations: GenerationOnEngine[]; df?: DfImage[] }): ImageDiskUse {
  const gens = input.generations.map((g) => ({ generation: g.generation, id: g.image.Id, chain: chainOf(g.image) }));
  const base = input.base ? chainOf(input.base) : null;
  const all = base ? [base, ...gens.map((g) => g.chain)] : gens.map((g) => g.chain);

  // Where the engine told the cumulative size: the end of every image's chain …
  const anchors = new Map<string, number>();
  for (const c of all) if (c.keys.length) anchors.set(c.keys[c.keys.length - 1], c.size);
  // … and the end of the shared part of each generation's chain, from /system/df.
  const shared = new Map((input.df ?? []).filter((i) => i.SharedSize >= 0).map((i) => [i.Id, i.SharedSize]));
  for (const g of gens) {
    const sharedSize = shared.get(g.id);
    if (sharedSize === undefined) continue;
    const depth = Math.max(0, ...all.filter((c) => c !== g.chain).map((c) => commonDepth(g.chain, c)));
    if (depth > 0 && !anchors.has(g.chain.keys[depth - 1])) anchors.set(g.chain.keys[depth - 1], sharedSize);
  }

  // Every anchor on a generation's chain is a stretch of layers; each stretch counts once.
  const stretches = new Map<string, number>();
  for (const g of gens) {
    g.chain.keys.forEach((key, i) => {
      const size = anchors.get(key);
      if (size !== undefined && !stretches.has(key)) stretches.set(key, Math.max(0, size - below(anchors, g.chain, i + 1)));
    });
  }
  const bytes = [...stretches.values()].reduce((n, b) => n + b, 0);
  const baseKey = base?.keys[base.keys.length - 1];
  const baseBytes = baseKey && stretches.has(baseKey) ? (base?.size ?? 0) : 0;

  // Each chain's stretches are counted once, so two generations parting above the last anchor they share count what lies between twice.
  let exact = true;
  for (let i = 0; i < gens.length; i++)
    for (let j = i + 1; j < gens.length; j++) {
      const d = commonDepth(gens[i].chain, gens[j].chain);
      if (d > 0 && !anchors.has(gens[i].chain.keys[d - 1])) exact = false;
    }

  const seen = new Set<string>();
  const perGeneration = [...gens]
    .sort((a, b) => a.generation - b.generation)
    .map((g) => {
      const top = g.chain.keys[g.chain.keys.length - 1];
      // The same image recorded twice holds no layers of its own the second time.
      const first = top !== undefined && !seen.has(top);
      if (top !== undefined) seen.add(top);
      return { generation: g.generation, ownBytes: first ? Math.max(0, g.chain.size - below(anchors, g.chain, g.chain.keys.length)) : 0 };
    });
  return { generations: gens.length, bytes, baseBytes, perGeneration, exact };
}
