import { describe, expect, it } from 'vitest';
import { evaluateGating } from '../skills/gating';
import type { SkillManifest } from '../skills/types';
import { imageGatingTarget, sandboxReasons } from './image-gating';
import { checkProbeBins, type ImageProbe, ImageProbeCache, MAX_PROBE_BINS, parseProbeOutput } from './image-probe';

function manifest(requires: Partial<SkillManifest['requires']> = {}, over: Partial<SkillManifest> = {}): SkillManifest {
  return {
    name: 'media',
    description: 'Media tools',
    allowedTools: [],
    userInvocable: true,
    disableModelInvocation: false,
    commandArgMode: 'raw',
    metadata: {},
    always: false,
    os: [],
    requires: { bins: [], anyBins: [], env: [], config: [], ...requires },
    skillKey: 'media',
    install: [],
    body: '',
    bodyLine: 1,
    ...over,
  };
}

const probe: ImageProbe = {
  image: 'busybox:1',
  imageId: `sha256:${'a'.repeat(64)}`,
  os: 'linux',
  arch: 'x86_64',
  bins: { sh: '/bin/sh', ls: '/bin/ls', ffprobe: null },
  env: ['HOME_SET'],
};

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

describe('imageGatingTarget', () => {
  const target = imageGatingTarget(probe, { label: 'media-box', envNames: ['API_TOKEN'] });

  it('is a linux target with the probe bins (an unprobed bin is missing) and env names only', async () => {
    expect(target.platform).toBe('linux');
    expect(target.label).toBe('media-box');
    expect(await target.which(['sh', 'ffprobe', 'never-probed'])).toEqual({ sh: '/bin/sh', ffprobe: null, 'never-probed': null });
    expect(Object.keys(target.env).sort()).toEqual(['API_TOKEN', 'HOME_SET']);
  });

  it('gives the sandbox reasons through the catalog gating', async () => {
    const m = manifest({ bins: ['ffprobe', 'sh'], anyBins: ['ffprobe', 'ffmpeg'], env: ['API_TOKEN', 'MISSING_KEY'] }, { primaryEnv: 'MISSING_KEY' });
    const found = await target.which(['ffprobe', 'sh', 'ffmpeg']);
    const r = evaluateGating({ manifest: m, source: 'managed', config: {}, found, targetEnv: target.env, platform: target.platform });
    expect(r.eligible).toBe(false);
    expect(sandboxReasons(r, 'media-box', m.primaryEnv)).toEqual([
      'missing bin ffprobe in sandbox media-box',
      'needs one of: ffprobe, ffmpeg in sandbox media-box',
      "missing env MISSING_KEY in sandbox media-box — set it in the config's env (primaryEnv), in the skill's workspace variables or in the agent's variables",
    ]);
  });

  it('leaves other reasons as they are', () => {
    const r = evaluateGating({
      manifest: manifest({}, { os: ['darwin'] }),
      source: 'managed',
      config: {},
      found: {},
      targetEnv: {},
      platform: 'linux',
    });
    expect(sandboxReasons(r, 'box')).toEqual(r.reasons);
  });
});
