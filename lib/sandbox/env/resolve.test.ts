import { describe, expect, it } from 'vitest';
import { type EnvEntry, envFor } from './resolve';
import { envNameProblem, envValue, personalEnvInput } from './rules';

const CFG = 'cfg-1';
const OTHER = 'cfg-2';
const e = (level: EnvEntry['level'], name: string, value: string, scope: Partial<EnvEntry> = {}): EnvEntry => ({ level, name, value, ...scope });

const ENTRIES: EnvEntry[] = [
  e('config', 'A', 'config', { configId: CFG }),
  e('config', 'B', 'config', { configId: CFG }),
  e('config', 'C', 'config', { configId: CFG }),
  e('config', 'D', 'config', { configId: CFG }),
  e('config', 'X', 'other-config', { configId: OTHER }),
  e('workspace_skill', 'B', 'workspace-skill', { skillKey: 'weather' }),
  e('workspace_skill', 'C', 'workspace-skill', { skillKey: 'weather' }),
  e('workspace_skill', 'D', 'workspace-skill', { skillKey: 'weather' }),
  e('workspace_skill', 'Y', 'other-skill', { skillKey: 'notes' }),
  e('personal_sandbox', 'C', 'personal-sandbox', { userId: 'u1', configId: CFG }),
  e('personal_sandbox', 'D', 'personal-sandbox', { userId: 'u1', configId: CFG }),
  e('personal_sandbox', 'Z', 'other-user', { userId: 'u2', configId: CFG }),
  e('personal_sandbox', 'W', 'u1-other-config', { userId: 'u1', configId: OTHER }),
  e('personal_skill', 'D', 'personal-skill', { userId: 'u1', skillKey: 'weather' }),
  e('personal_skill', 'UNDECLARED', 'personal-skill', { userId: 'u1', skillKey: 'weather' }),
  // A row written before a name became reserved never reaches a sandbox.
  e('personal_skill', 'LD_PRELOAD', '/tmp/x.so', { userId: 'u1', skillKey: 'weather' }),
  e('config', 'PATH', '/evil', { configId: CFG }),
];

const skill = { key: 'weather', declaredEnv: ['B', 'C', 'D', 'LD_PRELOAD'] };

describe('envFor: config < workspace skill < personal sandbox < personal skill', () => {
  const cases: {
    what: string;
    user: string | null;
    skill: typeof skill | null;
    entries?: EnvEntry[];
    env: Record<string, string>;
    sources: Record<string, string>;
  }[] = [
    {
      what: 'all four levels',
      user: 'u1',
      skill,
      env: { A: 'config', B: 'workspace-skill', C: 'personal-sandbox', D: 'personal-skill' },
      sources: { A: 'config', B: 'workspace_skill', C: 'personal_sandbox', D: 'personal_skill' },
    },
    {
      what: 'no skill: config and personal sandbox only',
      user: 'u1',
      skill: null,
      env: { A: 'config', B: 'config', C: 'personal-sandbox', D: 'personal-sandbox' },
      sources: { A: 'config', B: 'config', C: 'personal_sandbox', D: 'personal_sandbox' },
    },
    {
      what: 'no user: config and workspace skill only',
      user: null,
      skill,
      env: { A: 'config', B: 'workspace-skill', C: 'workspace-skill', D: 'workspace-skill' },
      sources: { A: 'config', B: 'workspace_skill', C: 'workspace_skill', D: 'workspace_skill' },
    },
    {
      what: 'another user sees only their own personal vars',
      user: 'u2',
      skill,
      env: { A: 'config', B: 'workspace-skill', C: 'workspace-skill', D: 'workspace-skill', Z: 'other-user' },
      sources: { A: 'config', B: 'workspace_skill', C: 'workspace_skill', D: 'workspace_skill', Z: 'personal_sandbox' },
    },
    {
      what: 'removing the personal skill override falls back to personal sandbox',
      user: 'u1',
      skill,
      entries: ENTRIES.filter((x) => !(x.level === 'personal_skill' && x.name === 'D')),
      env: { A: 'config', B: 'workspace-skill', C: 'personal-sandbox', D: 'personal-sandbox' },
      sources: { A: 'config', B: 'workspace_skill', C: 'personal_sandbox', D: 'personal_sandbox' },
    },
    {
      what: 'removing personal sandbox and workspace skill falls back to config',
      user: 'u1',
      skill,
      entries: ENTRIES.filter((x) => !(x.name === 'C' && (x.level === 'personal_sandbox' || x.level === 'workspace_skill'))),
      env: { A: 'config', B: 'workspace-skill', C: 'config', D: 'personal-skill' },
      sources: { A: 'config', B: 'workspace_skill', C: 'config', D: 'personal_skill' },
    },
    {
      what: 'a skill that declares nothing gets no personal skill vars',
      user: 'u1',
      skill: { key: 'weather', declaredEnv: [] },
      env: { A: 'config', B: 'workspace-skill', C: 'personal-sandbox', D: 'personal-sandbox' },
      sources: { A: 'config', B: 'workspace_skill', C: 'personal_sandbox', D: 'personal_sandbox' },
    },
  ];
  for (const c of cases) {
    it(c.what, () => {
      const r = envFor({ principal: c.user ? { id: c.user } : null, sandboxConfig: { id: CFG }, skill: c.skill }, c.entries ?? ENTRIES);
      expect(r.env).toEqual(c.env);
      expect(r.sources).toEqual(c.sources);
    });
  }
});

describe('env names and values', () => {
  it.each([
    ['PATH'],
    ['path'],
    ['HOME'],
    ['LD_PRELOAD'],
    ['ld_library_path'],
    ['SKILLDOCK_TOKEN'],
    ['NODE_OPTIONS'],
    ['BASH_FUNC_x%%'],
    ['A=B'],
    ['A\0B'],
    ['1ABC'],
    [''],
    ['A'.repeat(129)],
  ])('refuses %j', (name) => {
    expect(envNameProblem(name)).not.toBeNull();
  });
  it.each([['API_KEY'], ['_x'], ['GEMINI_API_KEY'], ['a1']])('accepts %j', (name) => {
    expect(envNameProblem(name)).toBeNull();
  });
  it('refuses NUL and values over 32 KiB, accepts 32 KiB', () => {
    expect(envValue.safeParse('a\0b').success).toBe(false);
    expect(envValue.safeParse('x'.repeat(32 * 1024 + 1)).success).toBe(false);
    expect(envValue.safeParse('x'.repeat(32 * 1024)).success).toBe(true);
  });
  it('personal input needs the scope of its level', () => {
    expect(personalEnvInput.safeParse({ level: 'personal_sandbox', skillKey: 'x', name: 'A', value: '1' }).success).toBe(false);
    expect(personalEnvInput.safeParse({ level: 'personal_skill', skillKey: 'weather', name: 'A', value: '1' }).success).toBe(true);
  });
});
