import { describe, expect, it } from 'vitest';
import { LAUNCHER_SPECS, LAUNCHERS, launcherOf, launcherStep, SUBCOMMAND_LAUNCHERS } from './launchers';
import { WRAPPERS } from './wrapper-specs';

describe('launchers', () => {
  it('finds where the command of each unwrapped launcher starts', () => {
    expect(launcherStep('flock', ['flock', '-w', '5', '/tmp/l', 'ls', '-la'])).toEqual({ kind: 'run', at: 4 });
    expect(launcherStep('flock', ['flock', '/tmp/l', '-c', 'ls; id'])).toEqual({ kind: 'script', text: 'ls; id', from: 3, to: 4 });
    expect(launcherStep('flock', ['flock', '/tmp/l', '-c', 'a', 'b'])).toMatchObject({ kind: 'fail' });
    expect(launcherStep('flock', ['flock', '9'])).toEqual({ kind: 'none' });
    expect(launcherStep('taskset', ['taskset', '-c', '0,1', 'ls'])).toEqual({ kind: 'run', at: 3 });
    expect(launcherStep('taskset', ['taskset', '-p', '1'])).toEqual({ kind: 'none' });
    expect(launcherStep('chrt', ['chrt', '-f', '10', 'ls'])).toEqual({ kind: 'run', at: 3 });
    expect(launcherStep('chrt', ['chrt', '-b', 'ls'])).toEqual({ kind: 'run', at: 2 });
    expect(launcherStep('watch', ['watch', '-n', '1', 'ls', '-la'])).toEqual({ kind: 'script', text: 'ls -la', from: 3, to: 5 });
    expect(launcherStep('watch', ['watch', '-x', 'ls'])).toEqual({ kind: 'run', at: 2 });
    expect(launcherStep('script', ['script', '-qc', 'id', 'log'])).toEqual({ kind: 'script', text: 'id', from: 1, to: 3 });
    expect(launcherStep('script', ['script', 'log'])).toEqual({ kind: 'shell' });
    expect(launcherStep('fakeroot', ['fakeroot'])).toEqual({ kind: 'shell' });
    expect(launcherStep('fakeroot', ['fakeroot', '-l', 'x.so', 'ls'])).toMatchObject({ kind: 'fail' });
    expect(launcherStep('coproc', ['coproc', 'ls'])).toEqual({ kind: 'run', at: 1, background: true });
    expect(launcherStep('coproc', ['coproc', 'X', '{', 'ls'])).toMatchObject({ kind: 'fail', rule: 'unparseable' });
    expect(launcherStep('uv', ['uv', 'run', 'pytest'])).toEqual({ kind: 'run', at: 2 });
    expect(launcherStep('uv', ['uv', 'run', '--with', 'x', 'pytest'])).toBeNull();
    expect(launcherStep('ls', ['ls'])).toBeNull();
  });

  it('names the launchers left after unwrapping', () => {
    expect(launcherOf(['/usr/bin/strace', 'ls'])).toBe('strace');
    expect(launcherOf(['uv', '--quiet', 'run', 'ls'])).toBe('uv run');
    expect(launcherOf(['nix', 'shell', 'x'])).toBe('nix shell');
    expect(launcherOf(['uv', 'pip', 'list'])).toBeNull();
    expect(launcherOf(['ls'])).toBeNull();
  });

  it('keeps the tables apart: a name is unwrapped or refused, never both', () => {
    for (const n of [...Object.keys(LAUNCHER_SPECS), ...Object.keys(WRAPPERS)]) expect(LAUNCHERS.has(n), n).toBe(false);
    for (const n of Object.keys(SUBCOMMAND_LAUNCHERS)) expect(LAUNCHERS.has(n), n).toBe(false);
  });
});
