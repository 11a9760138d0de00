import { describe, expect, it } from 'vitest';
import { reachedPaths } from '../rules/protected-paths';
import { escapePattern, expandBraces, globPath, MAX_ALTERNATIVES, segmentOf, touches } from './globs';
import { literalWord } from './words';

const at = (pattern: string, cwd = '/workspace', home = '/root') => globPath(pattern, cwd, home);
const PID = { pid: true } as const;

describe('glob paths', () => {
  it('expands braces with escapes respected, and gives up past the bound', () => {
    expect(expandBraces('/e{tc,x}/{a,b}')).toEqual(['/etc/a', '/etc/b', '/ex/a', '/ex/b']);
    expect(expandBraces('a{b,{c,d}}e')).toEqual(['abe', 'ace', 'ade']);
    expect(expandBraces('a\\{b,c}')).toEqual(['a\\{b,c}']);
    expect(expandBraces('{x}')).toEqual(['{x}']);
    expect(expandBraces('{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}')).toBeNull();
    expect(MAX_ALTERNATIVES).toBeLessThan(2 ** 7);
  });

  it('splits into literal and pattern segments, resolving ~, ~root, the working directory and ..', () => {
    expect(segmentOf('etc')).toEqual({ literal: 'etc' });
    expect(segmentOf('e\\*c')).toEqual({ literal: 'e*c' });
    expect('atoms' in segmentOf('e*c')).toBe(true);
    expect(at('src/*.ts')).toMatchObject([{ any: false, segments: [{ literal: 'workspace' }, { literal: 'src' }, {}] }]);
    expect(at('~root/.s*')).toMatchObject([{ any: false, segments: [{ literal: 'root' }, {}] }]);
    expect(at('~alice/*')).toEqual([{ any: true }]);
    expect(at('a/../b*')).toMatchObject([{ any: false, segments: [{ literal: 'workspace' }, {}] }]);
    expect(at('a*/../etc')).toEqual([{ any: true }]);
    expect(escapePattern('a*[b]~')).toBe('a\\*\\[b\\]\\~');
  });

  it('touches a protected path segment by segment; above a folder only when asked', () => {
    expect(touches(at('/e*/passwd')[0], ['etc'], true)).toBe(true);
    expect(touches(at('/w*/passwd')[0], ['etc'], true)).toBe(false);
    expect(touches(at('/*')[0], ['etc', 'ssh'], true)).toBe(true);
    expect(touches(at('/*')[0], ['etc', 'ssh'], false)).toBe(false);
    expect(touches(at('/e[!t]c')[0], ['etc'], true)).toBe(false);
    expect(touches(at('/e[a-z]c')[0], ['etc'], true)).toBe(true);
    expect(touches(at('/e[[:digit:]]c')[0], ['etc'], true)).toBe(false);
    expect(touches(at('/e[[:alpha:]]c')[0], ['etc'], true)).toBe(true);
  });

  it('matches process-id slots: digits, self and thread-self', () => {
    for (const p of ['/proc/*/environ', '/proc/1?/environ', '/proc/[0-9]/environ', '/proc/s*/environ', '/proc/thread-*/environ', '/proc/1/environ'])
      expect(touches(at(p)[0], ['proc', PID, 'environ'], false), p).toBe(true);
    for (const p of ['/proc/a*/environ', '/proc/[a-c]/environ', '/proc/x/environ']) expect(touches(at(p)[0], ['proc', PID, 'environ'], false), p).toBe(false);
  });

  it('stands in protected paths for the globs and relative paths that reach them', () => {
    const g = (pattern: string) => ({ ...literalWord(pattern), expands: true, pattern });
    expect(reachedPaths([g('/pr*/1/env*')], '/workspace', '/root')).toEqual(['/proc/self/environ']);
    expect(reachedPaths([g('/var/run/dock*')], '/workspace', '/root')).toContain('/var/run/docker.sock');
    expect(reachedPaths([g('/proc/1/env\\*')], '/workspace', '/root')).toEqual([]);
    expect(reachedPaths([literalWord('self/environ')], '/proc', '/root')).toEqual(['/proc/self/environ']);
    expect(reachedPaths([{ ...literalWord('$X'), dynamic: true }], '/proc', '/root')).toEqual([]);
  });
});
