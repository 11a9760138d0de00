import { describe, expect, it } from 'vitest';
import type { SkillEntryConfig, SkillManifest } from '../types';
import { collectBins, evaluateGating, type GatingInput } from './gating';

function manifest(over: Partial<SkillManifest> = {}, requires: Partial<SkillManifest['requires']> = {}): SkillManifest {
  return {
    name: 'weather',
    description: 'Weather forecasts',
    allowedTools: [],
    userInvocable: true,
    disableModelInvocation: false,
    commandArgMode: 'raw',
    metadata: {},
    always: false,
    os: [],
    requires: { bins: [], anyBins: [], env: [], config: [], ...requires },
    skillKey: 'weather',
    install: [],
    body: '',
    bodyLine: 1,
    ...over,
  };
}

const entry = (over: Partial<SkillEntryConfig> = {}): SkillEntryConfig => ({ envNames: [], hasApiKey: false, config: {}, ...over });

/** A skill needing something at every step, and a context satisfying all of it. */
function fullInput(): GatingInput {
  return {
    manifest: manifest(
      { os: ['linux', 'darwin'], primaryEnv: 'GEMINI_API_KEY', skillKey: 'wx' },
      { bins: ['curl'], anyBins: ['jq', 'yq'], env: ['GEMINI_API_KEY'], config: ['browser.enabled', 'tools.web'] },
    ),
    source: 'bundled',
    entry: entry({ hasApiKey: true }),
    allowBundled: ['wx'],
    config: { tools: { web: true } },
    found: { curl: '/usr/bin/curl', jq: null, yq: '/usr/bin/yq' },
    targetEnv: {},
    platform: 'linux',
  };
}

describe('evaluateGating: the order', () => {
  it('passes when every step is satisfied, tracing all eight steps in order', () => {
    const r = evaluateGating(fullInput());
    expect(r.eligible).toBe(true);
    expect(r.reasons).toEqual([]);
    expect(r.trace.map((t) => t.step)).toEqual(['enabled', 'allowBundled', 'os', 'always', 'bins', 'anyBins', 'env', 'config']);
    expect(r.trace.find((t) => t.step === 'env')!.detail).toContain('configured apiKey');
  });

  const flips: [string, (i: GatingInput) => void, string, keyof ReturnType<typeof evaluateGating>['missing'] | null][] = [
    ['enabled false', (i) => (i.entry = entry({ enabled: false, hasApiKey: true })), 'disabled in config', null],
    ['not in allowBundled', (i) => (i.allowBundled = ['other']), 'bundled skill not in allowBundled', null],
    ['wrong os', (i) => (i.platform = 'win32'), 'not available on win32 (skill supports linux, darwin)', 'os'],
    ['missing bin', (i) => (i.found = { ...i.found, curl: null }), 'missing bin curl', 'bins'],
    ['no anyBin', (i) => (i.found = { ...i.found, yq: null }), 'needs one of: jq, yq', 'anyBins'],
    ['missing primaryEnv', (i) => (i.entry = entry()), "missing env GEMINI_API_KEY — set it in the skill's config (primaryEnv)", 'env'],
    ['config false', (i) => (i.config = { tools: { web: true }, browser: { enabled: false } }), 'config browser.enabled is false', 'config'],
    ['config unset', (i) => (i.config = {}), 'config tools.web is not set', 'config'],
  ];
  for (const [label, change, reason, missingKey] of flips) {
    it(`fails on ${label}`, () => {
      const input = fullInput();
      change(input);
      const r = evaluateGating(input);
      expect(r.eligible).toBe(false);
      expect(r.reasons).toEqual([reason]);
      expect(r.trace.filter((t) => !t.pass)).toHaveLength(1);
      if (missingKey) expect((r.missing[missingKey] ?? []).length).toBeGreaterThan(0);
    });
  }

  it('reports disabled and blockedByAllowlist flags', () => {
    const i = fullInput();
    i.entry = entry({ enabled: false });
    i.allowBundled = [];
    const r = evaluateGating(i);
    expect(r.disabled).toBe(true);
    expect(r.blockedByAllowlist).toBe(true);
    expect(r.reasons).toContain('disabled in config');
  });

  it('always skips bins/anyBins/env/config but not os or enabled', () => {
    const i = fullInput();
    i.manifest = { ...i.manifest, always: true };
    i.found = {};
    i.entry = entry();
    i.config = {};
    const ok = evaluateGating(i);
    expect(ok.eligible).toBe(true);
    expect(ok.trace.filter((t) => t.skipped).map((t) => t.step)).toEqual(['bins', 'anyBins', 'env', 'config']);
    expect(evaluateGating({ ...i, platform: 'win32' }).eligible).toBe(false);
    expect(evaluateGating({ ...i, entry: entry({ enabled: false }) }).eligible).toBe(false);
  });

  it('allowBundled matches the skillKey or the name, and applies to bundled skills only', () => {
    const i = fullInput();
    expect(evaluateGating({ ...i, allowBundled: ['wx'] }).eligible).toBe(true);
    expect(evaluateGating({ ...i, allowBundled: ['weather'] }).eligible).toBe(true);
    expect(evaluateGating({ ...i, allowBundled: ['nope'] }).blockedByAllowlist).toBe(true);
    expect(evaluateGating({ ...i, allowBundled: undefined }).eligible).toBe(true);
    const managed = evaluateGating({ ...i, source: 'managed', allowBundled: [] });
    expect(managed.eligible).toBe(true);
    expect(managed.trace.find((t) => t.step === 'allowBundled')!.skipped).toBe(true);
  });

  it('env is found in the target env, in entry.envNames, or as apiKey for primaryEnv only', () => {
    const base = { ...fullInput(), source: 'workspace' as const, manifest: manifest({ primaryEnv: 'A_KEY' }, { env: ['A_KEY', 'B_TOKEN'] }) };
    expect(evaluateGating({ ...base, entry: entry({ hasApiKey: true }) }).missing.env).toEqual(['B_TOKEN']);
    expect(evaluateGating({ ...base, entry: entry({ hasApiKey: true, envNames: ['B_TOKEN'] }) }).eligible).toBe(true);
    expect(evaluateGating({ ...base, entry: entry(), targetEnv: { A_KEY: 'x', B_TOKEN: 'y' } }).eligible).toBe(true);
    // an empty value does not count as set
    expect(evaluateGating({ ...base, entry: entry(), targetEnv: { A_KEY: '', B_TOKEN: 'y' } }).missing.env).toEqual(['A_KEY']);
    const r = evaluateGating({ ...base, entry: entry() });
    expect(r.reasons).toEqual([
      "missing env A_KEY — set it in the skill's config (primaryEnv)",
      "missing env B_TOKEN — set it in the environment or the skill's env config",
    ]);
  });

  it('config: browser defaults true, entry.config as fallback, dotted paths must be truthy', () => {
    const base = { ...fullInput(), source: 'workspace' as const, manifest: manifest({}, { config: ['browser.enabled', 'browser.evaluateEnabled'] }) };
    expect(evaluateGating({ ...base, config: {} }).eligible).toBe(true);
    expect(evaluateGating({ ...base, config: { browser: { evaluateEnabled: false } } }).reasons).toEqual(['config browser.evaluateEnabled is false']);
    const custom = { ...base, manifest: manifest({}, { config: ['channels.slack.token'] }) };
    expect(evaluateGating({ ...custom, config: {} }).eligible).toBe(false);
    expect(evaluateGating({ ...custom, config: {}, entry: entry({ config: { channels: { slack: { token: 'set' } } } }) }).eligible).toBe(true);
    expect(evaluateGating({ ...custom, config: { channels: { slack: { token: '' } } } }).missing.config).toEqual(['channels.slack.token']);
  });

  it('anyBins passes with any one found and lists all when none is', () => {
    const base = { ...fullInput(), source: 'workspace' as const, manifest: manifest({}, { anyBins: ['a', 'b', 'c'] }) };
    expect(evaluateGating({ ...base, found: { c: '/bin/c' } }).eligible).toBe(true);
    const r = evaluateGating({ ...base, found: {} });
    expect(r.missing.anyBins).toEqual(['a', 'b', 'c']);
    expect(r.reasons).toEqual(['needs one of: a, b, c']);
  });

  it('a failing early step does not hide later requirements', () => {
    const i = fullInput();
    i.platform = 'win32';
    i.found = {};
    const r = evaluateGating(i);
    expect(r.missing.os).toEqual(['linux', 'darwin']);
    expect(r.missing.bins).toEqual(['curl']);
    expect(r.reasons[0]).toMatch(/^not available on win32/);
  });
});

describe('collectBins', () => {
  it('gathers every bin and anyBin once, sorted', () => {
    expect(collectBins([manifest({}, { bins: ['rg', 'git'], anyBins: ['jq'] }), manifest({}, { bins: ['git'], anyBins: ['yq', 'jq'] })])).toEqual([
      'git',
      'jq',
      'rg',
      'yq',
    ]);
  });
});
