import { describe, expect, it } from 'vitest';
import type { InstallRecord } from '../installs/records/store';
import type { CatalogSkill, CatalogSnapshot } from '../skills/service/catalog';
import type { DefaultsInputs, Effective } from './effective';
import { computeEffective } from './effective';
import { EffectiveCache } from './effective-cache';
import type { AgentTarget, HostTarget, SandboxTarget } from './target';

interface SkillOpts {
  hash?: string;
  description?: string;
  eligible?: boolean;
  userOnly?: boolean;
  /** Default true (the manifest default): the skill is also a slash command. */
  userInvocable?: boolean;
}

function skill(name: string, o: SkillOpts = {}): CatalogSkill {
  const manifest = {
    name,
    description: o.description ?? `The ${name} skill <&>.`,
    disableModelInvocation: !!o.userOnly,
    userInvocable: o.userInvocable ?? true,
    commandArgMode: 'raw',
    requires: { env: [], bins: [], anyBins: [], config: [] },
    skillKey: name,
  };
  const trace = [
    { step: 'enabled', pass: true, detail: 'not disabled in config' },
    { step: 'bins', pass: o.eligible !== false, detail: o.eligible === false ? 'missing rg' : 'no bins required' },
  ];
  return {
    id: name,
    name,
    skillKey: name,
    copy: {
      id: name,
      source: 'workspace',
      root: '/home/ada/skills',
      relDir: name,
      dir: `/home/ada/skills/${name}`,
      files: [],
      contentHash: o.hash ?? `h-${name}`,
      parsed: { valid: true, diagnostics: [], manifest },
    },
    shadowed: [],
    scan: { verdict: 'clean', findings: [], filesScanned: 1 },
    ack: null,
    status: o.eligible === false ? 'needs-setup' : 'ready',
    gating: {
      eligible: o.eligible !== false,
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
const host: HostTarget = { kind: 'host', label: 'this host', home: '/home/ada' };
const record = (key: string, state: string, hash = `h-${key}`) =>
  ({ skillKey: key, skillName: key, state, version: 'v1', contentHash: hash, imageGeneration: 1, previousReady: null }) as unknown as InstallRecord;
const sandbox = (installs: [string, string][]): SandboxTarget => ({
  kind: 'sandbox',
  configId: 'c1',
  configName: 'box',
  backend: 'e2b',
  installs: new Map(installs.map(([k, st]) => [k, record(k, st)])),
  manifests: new Map(),
  gating: null,
  gatingNote: { unsupported: true, message: 'gating inside a e2b sandbox is not checked; the install record decides' },
  home: null,
});

type Agent = { id: string; skills: string[] | null; denySkills: string[]; budget: { maxSkills: number; maxChars: number } | null };

/** Everything an answer says, as plain data. */
const plain = (e: Effective) => ({
  agentId: e.agentId,
  version: e.version,
  target: e.target,
  budget: e.budget,
  skills: e.skills,
  commands: e.commands,
  prompt: e.prompt,
  traces: e.traces,
  copies: [...e.copies].map(([k, v]) => [k, v.skill, v.served]),
});

function rng(seed: number) {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 2 ** 32;
  };
}

describe('EffectiveCache', () => {
  const names = Array.from({ length: 30 }, (_, i) => `s${String(i).padStart(2, '0')}`);
  const agents: Agent[] = [
    { id: 'open', skills: null, denySkills: [], budget: null },
    { id: 'list-a', skills: ['s01', 's02'], denySkills: [], budget: null },
    { id: 'list-b', skills: ['s05'], denySkills: [], budget: null },
    { id: 'none', skills: [], denySkills: [], budget: null },
    { id: 'deny', skills: null, denySkills: ['s01'], budget: null },
  ];
  const defaults: DefaultsInputs = { skills: null, budget: null };

  it('a one-skill edit evaluates that skill once and patches only the agents whose lists can include it', () => {
    const cache = new EffectiveCache();
    const skills = names.map((n) => skill(n));
    const before = new Map(agents.map((a) => [a.id, cache.effective(snap(skills), defaults, a, host)]));
    expect(cache.stats).toEqual({ skillEvals: 30, full: 5, patched: 0, reused: 0 });

    const edited = skills.map((s) => (s.name === 's01' ? skill('s01', { description: 'Rewritten.' }) : s));
    const after = new Map(agents.map((a) => [a.id, cache.effective(snap(edited), defaults, a, host)]));
    expect(cache.stats).toEqual({ skillEvals: 31, full: 5, patched: 2, reused: 3 });
    for (const a of agents) {
      expect(plain(after.get(a.id)!)).toEqual(plain(computeEffective(snap(edited), defaults, a, host)));
      const moved = after.get(a.id)!.version !== before.get(a.id)!.version;
      expect(moved, a.id).toBe(a.id === 'open' || a.id === 'list-a');
    }
  });

  it('nothing changed: the kept answer; an allowlist edit recomputes that agent alone, evaluating nothing', () => {
    const cache = new EffectiveCache();
    const s = snap(names.map((n) => skill(n)));
    const first = agents.map((a) => cache.effective(s, defaults, a, host));
    const again = agents.map((a) => cache.effective(s, defaults, a, host));
    expect(again.every((e, i) => e === first[i])).toBe(true);
    expect(cache.stats.reused).toBe(5);
    const edited = { ...agents[1], skills: ['s01', 's03'] };
    const e = cache.effective(s, defaults, edited, host);
    expect(cache.stats).toMatchObject({ skillEvals: 30, full: 6 });
    expect(plain(e)).toEqual(plain(computeEffective(s, defaults, edited, host)));
    expect(e.version).not.toBe(first[1].version);
  });

  it('keeps evaluations for a target loaded again with the same content, and drops them when it differs', () => {
    const cache = new EffectiveCache();
    const s = snap(names.map((n) => skill(n)));
    const t1 = cache.canonicalTarget(sandbox([['s01', 'ready']]));
    cache.effective(s, defaults, agents[0], t1);
    const t2 = cache.canonicalTarget(sandbox([['s01', 'ready']]));
    expect(t2).toBe(t1);
    expect(cache.effective(s, defaults, agents[0], t2)).toBe(cache.effective(s, defaults, agents[0], t1));
    expect(cache.stats.skillEvals).toBe(30);
    const t3 = cache.canonicalTarget(
      sandbox([
        ['s01', 'ready'],
        ['s02', 'ready'],
      ]),
    );
    expect(t3).not.toBe(t1);
    const e = cache.effective(s, defaults, agents[0], t3);
    expect(e.skills.map((x) => x.name)).toEqual(['s01', 's02']);
    expect(plain(e)).toEqual(plain(computeEffective(s, defaults, agents[0], t3)));
  });

  it('equals a computation from scratch after every one of a long run of random edits', () => {
    const r = rng(1717);
    const pick = <T>(xs: readonly T[]) => xs[Math.floor(r() * xs.length)];
    const subset = () => names.filter(() => r() < 0.3).concat(r() < 0.2 ? ['unknown-skill'] : []);
    const cache = new EffectiveCache();
    let skills = names.slice(0, 20).map((n) => skill(n));
    let defs: DefaultsInputs = { skills: null, budget: null };
    const team: Agent[] = Array.from({ length: 8 }, (_, i) => ({ id: `a${i}`, skills: i % 3 ? subset() : null, denySkills: [], budget: null }));
    const targets: AgentTarget[] = [
      host,
      { ...host, home: '/root' },
      sandbox([['s01', 'ready']]),
      sandbox([
        ['s02', 'ready'],
        ['s03', 'installing'],
      ]),
    ];
    const targetOf = new Map(team.map((a, i) => [a.id, cache.canonicalTarget(targets[i % 2])]));
    const counts = { edits: 0, checks: 0 };
    for (let round = 0; round < 250; round++) {
      const op = r();
      if (op < 0.45) {
        // A skill changes, comes or goes.
        const name = pick(names);
        const rest = skills.filter((s) => s.name !== name);
        const kind = r();
        const next =
          kind < 0.15
            ? null
            : skill(name, {
                hash: kind < 0.5 ? `h-${name}-${round}` : undefined,
                description: kind < 0.7 ? `Edited ${round} "${name}" & more` : undefined,
                eligible: r() > 0.15,
                userOnly: r() < 0.1,
                userInvocable: r() > 0.2,
              });
        skills = next ? [...rest, next].sort((a, b) => (a.name < b.name ? -1 : 1)) : rest;
      } else if (op < 0.7) {
        const a = pick(team);
        const k = r();
        a.skills = k < 0.2 ? null : k < 0.3 ? [] : subset();
        a.denySkills = r() < 0.3 ? subset().slice(0, 3) : [];
        a.budget = r() < 0.3 ? { maxSkills: 1 + Math.floor(r() * 8), maxChars: 200 + Math.floor(r() * 1500) } : null;
      } else if (op < 0.85) {
        const k = r();
        defs = { skills: k < 0.4 ? null : k < 0.5 ? [] : subset(), budget: r() < 0.3 ? { maxSkills: 5, maxChars: 900 } : null };
      } else {
        targetOf.set(pick(team).id, cache.canonicalTarget(pick(targets)));
      }
      counts.edits++;
      const s = snap(skills);
      for (const a of team) {
        const t = targetOf.get(a.id)!;
        const agent = { ...a, skills: a.skills && [...a.skills], denySkills: [...a.denySkills] };
        expect(plain(cache.effective(s, defs, agent, t)), `round ${round}, agent ${a.id}`).toEqual(plain(computeEffective(s, defs, agent, t)));
        counts.checks++;
      }
    }
    expect(counts).toEqual({ edits: 250, checks: 2000 });
    // The run went through every path.
    expect(cache.stats.patched).toBeGreaterThan(50);
    expect(cache.stats.reused).toBeGreaterThan(50);
    expect(cache.stats.full).toBeGreaterThan(50);
  }, 60_000);
});
