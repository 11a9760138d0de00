// User-invocable skills: the prompt catalog holds what the model may invoke, `commands` what a user
// may run; disable-model-invocation keeps a skill out of the first, user-invocable: false out of the second.
import { describe, expect, it } from 'vitest';
import type { CatalogSkill, CatalogSnapshot } from '../skills/service/catalog';
import type { SkillManifest } from '../skills/types';
import { computeEffective } from './effective';
import type { HostTarget } from './target';

function skill(name: string, m: Partial<SkillManifest> = {}, eligible = true): CatalogSkill {
  const manifest = {
    name,
    description: `The ${name} skill.`,
    userInvocable: true,
    disableModelInvocation: false,
    commandArgMode: 'raw',
    requires: { env: [], bins: [], anyBins: [], config: [] },
    skillKey: name,
    ...m,
  };
  const trace = [
    { step: 'enabled', pass: true, detail: 'not disabled in config' },
    { step: 'bins', pass: eligible, detail: eligible ? 'no bins required' : 'missing rg' },
  ];
  return {
    id: name,
    name,
    skillKey: name,
    copy: {
      id: name,
      source: 'workspace',
      root: '/r',
      relDir: name,
      dir: `/r/${name}`,
      files: [],
      contentHash: `h-${name}`,
      parsed: { valid: true, diagnostics: [], manifest },
    },
    shadowed: [],
    scan: { verdict: 'clean', findings: [], filesScanned: 1 },
    ack: null,
    status: eligible ? 'ready' : 'needs-setup',
    gating: { eligible, disabled: false, blockedByAllowlist: false, missing: { bins: [], anyBins: [], env: [], config: [], os: [] }, reasons: [], trace },
    keyOwner: name,
  } as unknown as CatalogSkill;
}
const snap = (skills: CatalogSkill[]) => ({ version: 1, skills, target: { id: 'host', label: 'this host', platform: 'linux' } }) as unknown as CatalogSnapshot;
const host: HostTarget = { kind: 'host', label: 'this host', home: '/r' };
const open = { skills: null, budget: null };
const agent = (skills: string[] | null = null) => ({ id: 'a', skills, denySkills: [], budget: null });

const catalog = () => [
  skill('both'),
  skill('deploy', { disableModelInvocation: true, commandDispatch: 'tool', commandTool: 'deploy_tool' }),
  skill('model-only', { userInvocable: false }),
  skill('nobody', { disableModelInvocation: true, userInvocable: false }),
  skill('broken', { disableModelInvocation: true }, false),
];

describe('commands beside the prompt catalog', () => {
  const e = computeEffective(snap(catalog()), open, agent(), host);

  it('a disable-model-invocation skill is absent from the prompt and present in the commands', () => {
    expect(e.skills.map((s) => s.name)).toEqual(['both', 'model-only']);
    expect(e.prompt.included).toEqual(['both', 'model-only']);
    expect(e.prompt.text).not.toContain('deploy');
    expect(e.commands.map((c) => c.name)).toEqual(['both', 'deploy']);
    expect(e.commands.find((c) => c.name === 'deploy')).toEqual({
      name: 'deploy',
      description: 'The deploy skill.',
      location: '/r/deploy/SKILL.md',
      skillDir: '/r/deploy',
      env: [],
      modelInvocable: false,
      userInvocable: true,
      commandDispatch: 'tool',
      commandTool: 'deploy_tool',
      commandArgMode: 'raw',
    });
    expect(e.commands.find((c) => c.name === 'both')).toMatchObject({ modelInvocable: true, commandDispatch: null, commandTool: null });
  });

  it('user-invocable: false keeps a skill out of the commands; neither invocable: out of both', () => {
    expect(e.commands.map((c) => c.name)).not.toContain('model-only');
    expect(e.commands.map((c) => c.name)).not.toContain('nobody');
    expect(e.skills.map((s) => s.name)).not.toContain('nobody');
    expect(e.copies.has('nobody')).toBe(false);
    expect(e.traces.find((t) => t.name === 'nobody')?.steps.find((s) => s.step === 'model-invocable')?.detail).toMatch(/neither the model nor a user/);
  });

  it('a command must pass every other step (an ineligible one is no command)', () => {
    expect(e.commands.map((c) => c.name)).not.toContain('broken');
    expect(e.traces.find((t) => t.name === 'broken')?.failedAt).toBe('eligible');
  });

  it("the gateway reads a command's files like a catalog skill's; its trace says where it went", () => {
    expect(e.copies.has('deploy')).toBe(true);
    const t = e.traces.find((x) => x.name === 'deploy')!;
    expect(t).toMatchObject({ effective: false, failedAt: 'model-invocable' });
    expect(t.steps.find((s) => s.step === 'model-invocable')?.detail).toMatch(/served as the user command \/deploy/);
  });

  it('the list applies to commands as to the catalog', () => {
    const only = computeEffective(snap(catalog()), open, agent(['both']), host);
    expect(only.commands.map((c) => c.name)).toEqual(['both']);
    expect(only.copies.has('deploy')).toBe(false);
  });

  it('commands are not cut by the prompt budget', () => {
    const tight = computeEffective(snap(catalog()), open, { ...agent(), budget: { maxSkills: 1, maxChars: 30_000 } }, host);
    expect(tight.skills.map((s) => s.name)).toEqual(['both']);
    expect(tight.commands.map((c) => c.name)).toEqual(['both', 'deploy']);
  });

  it('the version (the ETag) moves when a command changes, also one the prompt never shows', () => {
    const base = computeEffective(snap(catalog()), open, agent(), host).version;
    expect(computeEffective(snap(catalog()), open, agent(), host).version).toBe(base);
    const retool = catalog().map((s) =>
      s.name === 'deploy' ? skill('deploy', { disableModelInvocation: true, commandDispatch: 'tool', commandTool: 'other_tool' }) : s,
    );
    expect(computeEffective(snap(retool), open, agent(), host).version).not.toBe(base);
    const hidden = catalog().map((s) => (s.name === 'deploy' ? skill('deploy', { disableModelInvocation: true, userInvocable: false }) : s));
    expect(computeEffective(snap(hidden), open, agent(), host).version).not.toBe(base);
    const noCommand = catalog().map((s) => (s.name === 'both' ? skill('both', { userInvocable: false }) : s));
    expect(computeEffective(snap(noCommand), open, agent(), host).version).not.toBe(base);
  });
});
