import { describe, expect, it } from 'vitest';
import { type DfImage, type InspectedImage, imageDiskUse } from './disk';

// Layer diff ids and image ids shaped as the Engine API gives them (sha256: and 64 hex digits).
const sha = (n: number) => `sha256:${n.toString(16).padStart(2, '0').repeat(32)}`;
const L = { base: sha(1), a: sha(2), b: sha(3), c: sha(4), d: sha(5), e: sha(6) };
const SIZE = { base: 4_261_574, a: 1_204_224, b: 318_976, c: 1_507_328, d: 65_536, e: 2_097_152 };

/** An image as `GET /images/{id}/json` answers it (the fields Docker always sends around the ones used). */
function inspected(id: number, layers: (keyof typeof L)[]): InspectedImage & Record<string, unknown> {
  return {
    Id: sha(100 + id),
    RepoTags: [`skilldock-snapshot/cfg_1:gen-${id}`],
    RepoDigests: [],
    Parent: '',
    Created: '2026-12-07T15:02:11.482391042Z',
    Architecture: 'amd64',
    Os: 'linux',
    Size: layers.reduce((n, l) => n + SIZE[l], 0),
    VirtualSize: layers.reduce((n, l) => n + SIZE[l], 0),
    RootFS: { Type: 'layers', Layers: layers.map((l) => L[l]) },
    Metadata: { LastTagTime: '2026-12-07T15:02:11.5Z' },
  };
}
const base = { ...inspected(0, ['base']), RepoTags: ['busybox:1.36'] };
const gen = (generation: number, layers: (keyof typeof L)[]) => ({ generation, image: inspected(generation, layers) });

/** A `/system/df` image entry: SharedSize is what of the image's chain another image on the engine also uses. */
function dfEntry(image: InspectedImage, sharedSize: number): DfImage & Record<string, unknown> {
  return {
    Containers: 0,
    Created: 1_796_655_731,
    Id: image.Id,
    Labels: null,
    ParentId: '',
    RepoDigests: [],
    RepoTags: [],
    SharedSize: sharedSize,
    Size: image.Size,
    VirtualSize: image.Size,
  };
}

describe('the disk use of a config’s image generations', () => {
  it('counts layers shared by stacked generations and the base once', () => {
    // gen 1 = base + a, gen 2 = gen 1 + b (committed on top), gen 3 rebuilt from base = base + c, gen 4 = gen 3 + d.
    const gens = [gen(1, ['base', 'a']), gen(2, ['base', 'a', 'b']), gen(3, ['base', 'c']), gen(4, ['base', 'c', 'd'])];
    const naive = gens.reduce((n, g) => n + g.image.Size, 0);
    const use = imageDiskUse({ base, generations: gens });
    const distinct = SIZE.base + SIZE.a + SIZE.b + SIZE.c + SIZE.d;
    expect(use).toEqual({
      generations: 4,
      bytes: distinct,
      baseBytes: SIZE.base,
      perGeneration: [
        { generation: 1, ownBytes: SIZE.a },
        { generation: 2, ownBytes: SIZE.b },
        { generation: 3, ownBytes: SIZE.c },
        { generation: 4, ownBytes: SIZE.d },
      ],
      exact: true,
    });
    expect(naive).toBe(4 * SIZE.base + 2 * SIZE.a + SIZE.b + 2 * SIZE.c + SIZE.d);
    expect(use.bytes).toBeLessThan(naive);
  });

  it('needs /system/df to count once the layers of a collected generation that two later ones share', () => {
    // gen 1 (base + a) was collected; gen 2 and gen 3 were both built on it, so both still hold a.
    const gens = [gen(2, ['base', 'a', 'b']), gen(3, ['base', 'a', 'e'])];
    const blind = imageDiskUse({ base, generations: gens });
    expect(blind.exact).toBe(false);
    expect(blind.bytes).toBe(SIZE.base + 2 * SIZE.a + SIZE.b + SIZE.e);

    const df = [dfEntry(base, SIZE.base), ...gens.map((g) => dfEntry(g.image, SIZE.base + SIZE.a))];
    const seen = imageDiskUse({ base, generations: gens, df });
    expect(seen.exact).toBe(true);
    expect(seen.bytes).toBe(SIZE.base + SIZE.a + SIZE.b + SIZE.e);
    expect(seen.perGeneration).toEqual([
      { generation: 2, ownBytes: SIZE.b },
      { generation: 3, ownBytes: SIZE.e },
    ]);
  });

  it('ignores a SharedSize the engine did not compute (-1)', () => {
    const gens = [gen(2, ['base', 'a', 'b']), gen(3, ['base', 'a', 'e'])];
    const use = imageDiskUse({ base, generations: gens, df: gens.map((g) => dfEntry(g.image, -1)) });
    expect(use.exact).toBe(false);
  });

  it('counts no base when the generations stand on another image, and one image recorded twice once', () => {
    const other = { ...inspected(9, ['e']), RepoTags: ['alpine:3.20'] };
    const twice = [gen(1, ['base', 'a']), gen(2, ['base', 'a'])];
    expect(imageDiskUse({ base: other, generations: twice })).toEqual({
      generations: 2,
      bytes: SIZE.base + SIZE.a,
      baseBytes: 0,
      perGeneration: [
        { generation: 1, ownBytes: SIZE.base + SIZE.a },
        { generation: 2, ownBytes: 0 },
      ],
      exact: true,
    });
  });

  it('is nothing for no generations', () => {
    expect(imageDiskUse({ base, generations: [] })).toEqual({ generations: 0, bytes: 0, baseBytes: 0, perGeneration: [], exact: true });
  });
});
