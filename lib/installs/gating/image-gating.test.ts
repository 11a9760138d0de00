import { describe, expect, it } from 'vitest';
import type { ImageProbe } from '../../sandbox/images/image-probe';
import { evaluateGating } from '../../skills/gating';
import type { SkillManifest } from '../../skills/types';
import { imageGatingTarget, sandboxReasons } from './image-gating';

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
