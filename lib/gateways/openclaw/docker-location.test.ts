import { describe, expect, it } from 'vitest';
import { AppError } from '../../core/errors';
import { checkDockerLocation } from './docker-access';
import { classify } from './docker-skills';

const marker = (name: string, digest = 'a'.repeat(64)) => Buffer.from(JSON.stringify({ name, digest, writer: 'skilldock', writtenAt: '' }));

describe('checkDockerLocation', () => {
  it('normalises the state folder and keeps a CLI name or absolute path', () => {
    expect(checkDockerLocation({ type: 'docker', container: 'gw-1', stateDir: '/root/.openclaw/' })).toEqual({
      type: 'docker',
      container: 'gw-1',
      stateDir: '/root/.openclaw',
    });
    expect(checkDockerLocation({ type: 'docker', container: 'a'.repeat(64), stateDir: '/s', cli: '/usr/local/bin/openclaw' }).cli).toBe(
      '/usr/local/bin/openclaw',
    );
  });

  it.each([
    [{ container: '-rm', stateDir: '/s' }, 'location.container'],
    [{ container: 'a b', stateDir: '/s' }, 'location.container'],
    [{ container: 'gw', stateDir: 'relative' }, 'location.stateDir'],
    [{ container: 'gw', stateDir: '/' }, 'location.stateDir'],
    [{ container: 'gw', stateDir: '/s', cli: 'openclaw --help' }, 'location.cli'],
    [{ container: 'gw', stateDir: '/s', cli: '../bin/openclaw' }, 'location.cli'],
    [{ container: 'gw', stateDir: '/s', cli: '/opt/../bin/sh' }, 'location.cli'],
  ])('refuses %j', (loc, field) => {
    const e = (() => {
      try {
        checkDockerLocation({ type: 'docker', ...loc });
      } catch (err) {
        return err;
      }
    })();
    expect(e).toBeInstanceOf(AppError);
    expect((e as AppError).issues?.[0]?.path).toBe(field);
  });
});

describe('classify', () => {
  it('counts only real folders whose marker names them as ours; skips leftovers and files', () => {
    const { ours, foreign } = classify({
      rootType: 'dir',
      entries: new Map([
        ['mine', 'dir'],
        ['renamed', 'dir'],
        ['operator', 'dir'],
        ['linked', 'symlink'],
        ['README.md', 'file'],
        ['.skilldock-old-mine-0123456789ab', 'dir'],
      ] as const),
      markers: new Map([
        ['mine', marker('mine')],
        ['renamed', marker('other-name')],
        ['linked', marker('linked')],
      ]),
    });
    expect([...ours.keys()]).toEqual(['mine']);
    expect([...foreign].sort()).toEqual(['linked', 'operator', 'renamed']);
  });
});
