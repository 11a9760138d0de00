// @vitest-environment happy-dom
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { configImageOut } from '@/lib/installs/schema';
import { renderComponent } from '@/test/helpers/render-component';
import { ConfigImage } from './config-image';

const MB = 1024 * 1024;
const at = '2026-12-07T15:00:00.000Z';
const generation = (n: number, state: 'active' | 'superseded' | 'deleted', sizeBytes: number | null) => ({
  id: `img_${n}`,
  generation: n,
  parentGeneration: n > 1 ? n - 1 : null,
  state,
  ref: `skilldock-snapshot/cfg_1:gen-${n}`,
  imageId: state === 'deleted' ? null : `sha256:${String(n).repeat(64)}`,
  sizeBytes,
  layers: 3,
  skills: [],
  createdAt: at,
  supersededAt: state === 'active' ? null : at,
});

// What GET /api/v1/sandbox-configs/{id}/image answers, checked against the contract's own schema:
// three stacked generations of about 41 MB each on a 40 MB base, the first one collected.
function image(disk: Record<string, unknown>) {
  return configImageOut.parse({
    configId: 'cfg_1',
    baseImage: 'python:3.12-slim',
    rollout: 'next_turn',
    health: { state: 'ok', message: 'Generation 3 is on the engine (3 layers).', layerLimit: 125 },
    active: generation(3, 'active', 43 * MB),
    generations: [generation(1, 'deleted', 41 * MB), generation(2, 'superseded', 42 * MB), generation(3, 'active', 43 * MB)],
    disk,
  });
}

function show(data: ReturnType<typeof image>) {
  renderComponent(<ConfigImage configId="cfg_1" configName="python-sandbox" query={{ data, isPending: false, error: null, refetch: () => {} }} />);
  return screen.getByTestId('config-image');
}

describe('a config image’s generations', () => {
  it('says what they take on disk with shared layers counted once, and what each generation adds', () => {
    const panel = show(
      image({
        source: 'engine',
        generations: 2,
        bytes: 43 * MB,
        baseBytes: 40 * MB,
        exact: true,
        perGeneration: [
          { generation: 2, ownBytes: 2 * MB },
          { generation: 3, ownBytes: 1 * MB },
        ],
        error: null,
      }),
    );
    // Not 42 + 43 = 85 MB: generation 3 is built on generation 2, both on the base.
    expect(within(panel).getByTestId('image-disk').textContent).toBe('2 generations · 43 MB on disk, 40 MB of it the base image they share');
    const own = (n: number) => within(panel.querySelector(`[data-generation="${n}"]`) as HTMLElement).getByTestId('generation-own');
    expect(own(3).textContent).toBe('+1.0 MB');
    expect(own(3).getAttribute('title')).toBe('The image is 43 MB with every layer under it');
    expect(own(2).textContent).toBe('+2.0 MB');
    // A collected generation holds nothing on disk any more.
    expect(own(1).textContent).toBe('—');
  });

  it('says "at most" when layers two generations share could not be placed', () => {
    const loose = show(image({ source: 'engine', generations: 2, bytes: 44 * MB, baseBytes: 40 * MB, exact: false, perGeneration: [], error: null }));
    expect(within(loose).getByTestId('image-disk').textContent).toBe('2 generations · at most 44 MB on disk, 40 MB of it the base image they share');
  });

  it('says the disk use is unknown when the engine could not be asked', () => {
    const down = show(
      image({
        source: 'engine',
        generations: 0,
        bytes: null,
        baseBytes: 0,
        exact: false,
        perGeneration: [],
        error: 'The Docker engine at unix:///var/run/docker.sock is not reachable',
      }),
    );
    expect(within(down).getByTestId('image-disk').textContent).toBe(
      '0 generations · disk use unknown: the engine could not be asked (The Docker engine at unix:///var/run/docker.sock is not reachable)',
    );
    expect(within(down).queryByText(/85 MB/)).toBeNull();
  });
});
