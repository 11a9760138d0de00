import { describe, expect, it } from 'vitest';
import { imageStanding, type RecordedImage, staleReason } from './rollout-standing';

const id = (c: string) => `sha256:${c.repeat(64)}`;
const images: RecordedImage[] = [
  { generation: 3, imageId: id('c'), state: 'active' },
  { generation: 2, imageId: id('b'), state: 'superseded' },
  { generation: 1, imageId: id('a'), state: 'deleted' },
  { generation: 4, imageId: null, state: 'building' },
];

describe('imageStanding', () => {
  it('a sandbox on the active generation is current', () => {
    expect(imageStanding(id('c'), images)).toEqual({ imageGeneration: 3, activeGeneration: 3, stale: false });
  });

  it('a sandbox on an older generation is stale and names it', () => {
    expect(imageStanding(id('b'), images)).toEqual({ imageGeneration: 2, activeGeneration: 3, stale: true });
    // A deleted record still tells which generation a surviving container came from.
    expect(imageStanding(id('a'), images)).toEqual({ imageGeneration: 1, activeGeneration: 3, stale: true });
  });

  it('a sandbox on the base image is stale once a snapshot is active', () => {
    expect(imageStanding(id('f'), images)).toEqual({ imageGeneration: null, activeGeneration: 3, stale: true });
  });

  it('nothing is stale while the config has no active snapshot', () => {
    const none = images.filter((i) => i.state !== 'active');
    expect(imageStanding(id('f'), none)).toEqual({ imageGeneration: null, activeGeneration: null, stale: false });
    expect(imageStanding(id('b'), none)).toEqual({ imageGeneration: 2, activeGeneration: null, stale: false });
    expect(imageStanding(id('f'), [])).toEqual({ imageGeneration: null, activeGeneration: null, stale: false });
  });

  it('a backend that does not tell the image id is never stale', () => {
    expect(imageStanding(undefined, images)).toEqual({ imageGeneration: null, activeGeneration: 3, stale: false });
    expect(imageStanding('', images).stale).toBe(false);
  });

  it('a building generation without an id never matches', () => {
    const planned: RecordedImage[] = [{ generation: 1, imageId: id('a'), state: 'building' }];
    expect(imageStanding(id('a'), planned)).toEqual({ imageGeneration: null, activeGeneration: null, stale: false });
  });
});

describe('staleReason', () => {
  it('words the generation or the base image', () => {
    expect(staleReason({ imageGeneration: 2, activeGeneration: 3, stale: true })).toBe('started from generation 2; generation 3 is active');
    expect(staleReason({ imageGeneration: null, activeGeneration: 1, stale: true })).toBe('started from the base image; generation 1 is active');
  });
  it('is null for a current sandbox', () => {
    expect(staleReason({ imageGeneration: 3, activeGeneration: 3, stale: false })).toBeNull();
    expect(staleReason({ imageGeneration: null, activeGeneration: null, stale: false })).toBeNull();
  });
});
