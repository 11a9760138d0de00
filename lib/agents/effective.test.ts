import { describe, expect, it } from 'vitest';
import type { InstallRecord } from '../installs/records/store';
import type { CatalogSkill, CatalogSnapshot } from '../skills/service/catalog';
import { computeEffective } from './effective';
import { matchesEtag } from './service';
import type { HostTarget, SandboxTarget } from './target';

function skill(name: string, over: { hash?: string; description?: string; eligible?: boolean } = {}): CatalogSkill {
  const manifest = {
    name,
    description: over.description ?? `The ${name} skill.`,
    disableModelInvocation: false,
    requires: { env: [], bins: [], anyBins: [], config: [] },
    skillKey: name,
  };
  const trace = [
    { step: 'enabled', pass: true, detail: 'not disabled in config' },
    { step: 'bins', pass: over.eligible !== false, detail: over.eligible === false ? 'missing rg' : 'no bins required' },
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
      contentHash: over.hash ?? `h-${name}`,
      parsed: { valid: true, diagnostics: [], manifest },
    },
    shadowed: [],
    scan: { verdict: 'clean', findings: [], filesScanned: 1 },
    ack: null,
    status: over.eligible === false ? 'needs-setup' : 'ready',
    gating: {
      eligible: over.eligible !== false,
      disabled: false,
      blockedByAllowlist: false,
      missing: { bins: [], anyBins: [], env: [], config: [], os: [] },
      reasons: [],
      trace,
    },
    keyOwner: name,
  } as unknown as CatalogSkill;
}
const snap = (skills: CatalogSkill[]) => ({ version: 1, skills, target: { id: 'host', label: 'this host', platform: 'linux' } }) as unknown as CatalogSnapshot;
const host: HostTarget = { kind: 'host', label: 'this host', home: '/r' };
const open = { skills: null, budget: null };
const agent = (skills: string[] | null, denySkills: string[] = []) => ({ id: 'a', skills, denySkills, budget: null });

describe('computeEffective', () => {
  it('has a version that moves with its inputs only', () => {
    const base = computeEffective(snap([skill('a'), skill('b')]), open, agent(null), host);
    expect(computeEffective(snap([skill('a'), skill('b')]), open, agent(null), host).version).toBe(base.version);
    expect(computeEffective(snap([skill('a', { hash: 'new' }), skill('b')]), open, agent(null), host).version).not.toBe(base.version);
    expect(computeEffective(snap([skill('a'), skill('b')]), open, agent(['a', 'b']), host).version).not.toBe(base.version);
    expect(computeEffective(snap([skill('a'), skill('b'), skill('c', { eligible: false })]), open, agent(null), host).version).toBe(base.version);
  });

  it('shows a skill the list excludes by name and rule only', () => {
    const e = computeEffective(snap([skill('a'), skill('b', { description: 'SECRET' })]), open, agent(['a']), host);
    expect(e.skills.map((s) => s.name)).toEqual(['a']);
    expect(e.traces.find((t) => t.name === 'b')).toEqual({
      name: 'b',
      excluded: true,
      effective: false,
      failedAt: 'allowed',
      copies: [],
      steps: [{ step: 'allowed', pass: false, detail: `"b" is not on the agent's own list (it replaces the defaults)` }],
    });
    expect(JSON.stringify(e.traces) + e.prompt.text).not.toContain('SECRET');
    expect(e.prompt.text).toContain('<location>~/a/SKILL.md</location>');
  });

  it('on a sandbox config serves only what is installed and ready there, at the sandbox path', () => {
    const record = (key: string, state: string) =>
      ({ skillKey: key, skillName: key, state, version: 'v1', contentHash: `h-${key}`, imageGeneration: 1, previousReady: null }) as unknown as InstallRecord;
    const t: SandboxTarget = {
      kind: 'sandbox',
      configId: 'c1',
      configName: 'box',
      backend: 'e2b',
      installs: new Map([
        ['a', record('a', 'ready')],
        ['b', record('b', 'removing')],
      ]),
      manifests: new Map(),
      gating: null,
      gatingNote: { unsupported: true, message: 'gating inside a e2b sandbox is not checked; the install record decides' },
      home: null,
    };
    const e = computeEffective(snap([skill('a'), skill('b'), skill('c')]), open, agent(null), t);
    expect(e.skills).toEqual([
      { name: 'a', description: 'The a skill.', location: '/opt/skilldock/skills/a/SKILL.md', skillDir: '/opt/skilldock/skills/a', env: [] },
    ]);
    const by = Object.fromEntries(e.traces.map((x) => [x.name, x]));
    expect(by.a.steps.find((s) => s.step === 'eligible')).toMatchObject({ pass: true, skipped: true });
    expect(by.b.steps.find((s) => s.step === 'installed')).toEqual({
      step: 'installed',
      pass: false,
      detail: 'the install in sandbox box is removing: nothing ready is served',
    });
    expect(by.c.failedAt).toBe('installed');
  });
});

describe('the explain trace', () => {
  it('evaluates every step of a skill that fails several, and marks the prompt not reached', () => {
    const off = skill('a', { eligible: false });
    (off.gating as { disabled: boolean }).disabled = true;
    const e = computeEffective(snap([off]), open, agent(null), host);
    const t = e.traces[0];
    expect(t).toMatchObject({ effective: false, failedAt: 'eligible' });
    expect(t.steps.map((s) => [s.step, s.pass, s.skipped ?? false])).toEqual([
      ['found', true, false],
      ['copy', true, false],
      ['usable', true, false],
      ['eligible', false, false],
      ['installed', true, true],
      ['allowed', true, false],
      ['enabled', false, false],
      ['model-invocable', true, false],
      ['prompt', false, true],
    ]);
    expect(t.steps.at(-1)?.detail).toBe('not reached: it fails eligible, enabled');
  });
});

describe('matchesEtag', () => {
  it('accepts the tag, weak forms, lists and *', () => {
    expect(matchesEtag('"v1"', 'v1')).toBe(true);
    expect(matchesEtag('W/"v1"', 'v1')).toBe(true);
    expect(matchesEtag('"x", "v1"', 'v1')).toBe(true);
    expect(matchesEtag('*', 'v1')).toBe(true);
    expect(matchesEtag('"v2"', 'v1')).toBe(false);
    expect(matchesEtag('v1', 'v1')).toBe(false);
    expect(matchesEtag(null, 'v1')).toBe(false);
  });
});
