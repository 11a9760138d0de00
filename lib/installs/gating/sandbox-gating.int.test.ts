// GET /api/v1/skills/{id}/sandbox-gating on a real engine with the offline busybox image: a skill
// needing only `sh` is ready in the sandbox, one needing `ffprobe` is ready on neither and says
// which program the sandbox lacks; the route needs skills.read and names an unknown skill with a 404.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { GET } from '@/app/api/v1/skills/[id]/sandbox-gating/route';
import { setServices } from '@/lib/services';
import { apiUser } from '@/test/helpers/api';
import { describeDocker } from '@/test/helpers/docker';
import { type InstallKit, skillMd, startInstallKit } from '@/test/helpers/install-jobs';
import { type Json, skillsClient } from '@/test/helpers/skills-api';

describeDocker('skill gating in sandbox images (API)', () => {
  let kit: InstallKit;
  let reader = '';
  let noSkills = '';
  let cfg = '';
  const ids: Record<string, string> = {};

  async function ask(id: string, token = reader): Promise<{ status: number; body: Json }> {
    const res = await GET(new Request(`http://localhost/api/v1/skills/${id}/sandbox-gating`, { headers: { authorization: `Bearer ${token}` } }), {
      params: Promise.resolve({ id }),
    });
    return { status: res.status, body: await res.json() };
  }

  beforeAll(async () => {
    kit = await startInstallKit();
    const s = kit.ts.services;
    setServices(Promise.resolve(s));
    reader = (await apiUser(s, { email: 'gate-reader@example.test', role: 'viewer', tokenName: 'r', permissions: ['skills.read'] })).token;
    noSkills = (await apiUser(s, { email: 'gate-other@example.test', role: 'viewer', tokenName: 'o', permissions: ['sandboxes.read'] })).token;
    cfg = await kit.newConfig('gate-tools');
    await kit.storeSkill('gate-shell', { 'SKILL.md': skillMd('gate-shell', ['sh']) });
    await kit.storeSkill('gate-media', { 'SKILL.md': skillMd('gate-media', ['sh', 'ffprobe']) });
    await s.skills.refresh();
    const list = await skillsClient(s, reader).list('?source=managed');
    for (const k of list.skills) ids[k.name] = k.id;
  }, 180_000);

  afterAll(async () => {
    await kit?.stop();
  });

  it('says per config whether the skill is ready in its image, with the missing program', async () => {
    const shell = await ask(ids['gate-shell']);
    expect(shell.status, JSON.stringify(shell.body)).toBe(200);
    expect(shell.body).toMatchObject({ skillId: ids['gate-shell'], skillKey: 'gate-shell', host: { eligible: expect.any(Boolean) } });
    expect(shell.body.configs).toEqual([
      { configId: cfg, configName: 'gate-tools', image: kit.image, eligible: true, reasons: [], missingBins: [], installState: null, error: null },
    ]);

    const media = await ask(ids['gate-media']);
    expect(media.status).toBe(200);
    expect(media.body.host.eligible).toBe(false);
    expect(media.body.host.reasons).toContain('missing bin ffprobe');
    expect(media.body.configs).toEqual([
      {
        configId: cfg,
        configName: 'gate-tools',
        image: kit.image,
        eligible: false,
        reasons: ['missing bin ffprobe in sandbox gate-tools'],
        missingBins: ['ffprobe'],
        installState: null,
        error: null,
      },
    ]);
  }, 120_000);

  it('needs skills.read, and names an unknown skill', async () => {
    const denied = await ask(ids['gate-shell'], noSkills);
    expect(denied.status).toBe(403);
    const unknown = await ask('0000000000000000');
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('not_found');
  });
});
