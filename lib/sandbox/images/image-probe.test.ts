// The image probe's pure parts: the program names it accepts, how it reads the probe's output, and
// its per-image cache.
import { describe, expect, it } from 'vitest';
import { checkProbeBins, ImageProbeCache, MAX_PROBE_BINS, parseProbeOutput } from './image-probe';

describe('checkProbeBins', () => {
  it('accepts plain program names, deduplicated and sorted', () => {
    expect(checkProbeBins(['sh', 'python3.12', 'g++', 'ls', 'sh', 'x_y-z'])).toEqual(['g++', 'ls', 'python3.12', 'sh', 'x_y-z']);
  });
  for (const bad of ['a;b', '$(id)', '`id`', '-v', '../sh', '/bin/sh', 'a b', '', 'a\nb', '.', 'x'.repeat(129)]) {
    it(`refuses ${JSON.stringify(bad.slice(0, 20))}`, () => {
      expect(() => checkProbeBins(['sh', bad])).toThrow(expect.objectContaining({ code: 'validation' }));
    });
  }
  it('refuses too many names', () => {
    expect(() => checkProbeBins(Array.from({ length: MAX_PROBE_BINS + 1 }, (_, i) => `b${i}`))).toThrow(/at most/);
  });
});

describe('parseProbeOutput', () => {
  it('reads bins, os and arch, and ignores lines about names nobody asked for', () => {
    const out = 'y sh /bin/sh\nn ffprobe\ny intruder /x\nos Linux\narch aarch64\n';
    const r = parseProbeOutput(out, ['ffprobe', 'sh']);
    expect(r.os).toBe('linux');
    expect(r.arch).toBe('aarch64');
    expect(Object.fromEntries(r.bins)).toEqual({ sh: '/bin/sh', ffprobe: null });
  });
  it('fails when an asked bin or the os is unanswered', () => {
    expect(() => parseProbeOutput('y sh /bin/sh\nos Linux\n', ['sh', 'ls'])).toThrow(/ls/);
    expect(() => parseProbeOutput('y sh /bin/sh\n', ['sh'])).toThrow(/OS/);
  });
});

describe('ImageProbeCache', () => {
  it('drops the least recently used image past its bound', () => {
    const cache = new ImageProbeCache(2);
    const known = { os: 'linux', arch: 'x86_64', bins: new Map(), env: new Map() };
    cache.set('a', known);
    cache.set('b', known);
    cache.get('a');
    cache.set('c', known);
    expect(cache.size).toBe(2);
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toBe(known);
    expect(cache.get('c')).toBe(known);
  });
});
