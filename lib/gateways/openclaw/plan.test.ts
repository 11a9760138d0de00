import { describe, expect, it } from 'vitest';
import type { CatalogSkill } from '../../skills/service/build';
import type { Desired } from '../desired';
import { readOpenClawModel } from './config-model';
import { maskedPatch, planSync, type SecretsSink, storeSecretName } from './plan';

const ctx = { stateDir: '/srv/oc', home: '/home/op' };
const skill = (name: string, hash: string, status = 'ready') => ({ name, status, copy: { source: 'managed', contentHash: hash } }) as unknown as CatalogSkill;

function plan(
  config: Record<string, unknown>,
  desired: Partial<Desired>,
  opts: { ours?: [string, string][]; foreign?: string[]; owned?: string[]; secrets?: SecretsSink } = {},
) {
  const d: Desired = { defaults: null, agents: [], entries: new Map(), skills: new Map(), blocked: [], ...desired };
  return planSync({
    config,
    model: readOpenClawModel(config, ctx),
    desired: d,
    owned: { entries: opts.owned ?? [], defaults: true },
    folders: { ours: new Map((opts.ours ?? []).map(([name, digest]) => [name, { name, digest }])), foreign: new Set(opts.foreign ?? []) },
    secrets: opts.secrets === undefined ? { file: '/srv/oc/skilldock-secrets.json' } : opts.secrets,
  });
}

describe('the OpenClaw config model', () => {
  it('reads keyed and legacy agents, entries with plain keys and SecretRefs, load dirs with ~ expanded', () => {
    const m = readOpenClawModel(
      {
        agents: { defaults: { skills: ['a', 'a', 'b'] }, entries: { w: { skills: [] } }, list: [{ id: 'old', skills: ['c'] }, { id: 'w' }, 'junk'] },
        skills: {
          entries: { k: { enabled: false, env: { X: '1', N: 2 }, apiKey: { source: 'env', provider: 'default', id: 'K' } }, p: { apiKey: 'plain' } },
          load: { extraDirs: ['~/x'], watch: false },
          allowBundled: ['gemini'],
        },
      },
      ctx,
    );
    expect(m.defaultsSkills).toEqual(['a', 'b']);
    expect(m.agents).toEqual([
      { id: 'old', skills: ['c'], workspace: '/srv/oc/workspace-old', legacy: true },
      { id: 'w', skills: [], workspace: '/srv/oc/workspace-w', legacy: false },
    ]);
    expect(m.entries.k).toEqual({ enabled: false, env: { X: '1' }, apiKey: { kind: 'ref', ref: { source: 'env', provider: 'default', id: 'K' } } });
    expect(m.entries.p?.apiKey).toEqual({ kind: 'plain', value: 'plain' });
    expect(m.load).toEqual({ extraDirs: ['/home/op/x'], allowSymlinkTargets: [], watch: false });
    expect(m.problems).toEqual(['agents.list[2]: expected an object with an id']);
  });

  it('reports a list of the wrong type instead of guessing', () => {
    expect(readOpenClawModel({ agents: { defaults: { skills: 'all' } } }, ctx).problems).toEqual(['agents.defaults.skills: expected a list of names']);
  });
});

describe('the sync plan', () => {
  const config = { agents: { defaults: { skills: ['a', 'b'] }, entries: { x: { skills: ['a'] }, y: {} } }, channels: { t: 1 } };

  it('patches only what differs, names the arrays it shortens, and never touches other keys', () => {
    const p = plan(config, {
      defaults: ['a'],
      agents: [
        { id: 'x', skills: ['a'], exists: true },
        { id: 'y', skills: ['b'], exists: true },
        { id: 'gone', skills: null, exists: true },
      ],
    });
    expect(p.patch).toEqual({ agents: { defaults: { skills: ['a'] }, entries: { y: { skills: ['b'] } } } });
    expect(p.replacePaths).toEqual(['agents.defaults.skills']);
    expect(p.configChanges).toEqual(['agents.defaults.skills: ["a","b"] → ["a"]', 'agents.entries.y.skills: (absent) → ["b"]']);
    expect(p.notes[0]).toMatch(/gone is not an agent of this gateway/);
  });

  it('deletes the defaults list when Skilldock is unrestricted', () => {
    const p = plan(config, { defaults: null });
    expect(p.patch).toEqual({ agents: { defaults: { skills: null } } });
    expect(p.replacePaths).toEqual(['agents.defaults.skills']);
  });

  it('delivers env values masked in the diff and keys through the secrets file, and drops only what it owns', () => {
    const cfg = { skills: { entries: { k: { env: { OLD: 'x', KEEP: 'y' } }, mine: { enabled: true }, theirs: { enabled: true } } } };
    const p = plan(cfg, { entries: new Map([['k', { enabled: null, env: { KEEP: 'y', NEW: 's3cret' }, apiKey: 'key-1' }]]) }, { owned: ['k', 'mine'] });
    expect(p.patch).toEqual({
      skills: { entries: { k: { env: { OLD: null, NEW: 's3cret' }, apiKey: { source: 'file', provider: 'skilldock', id: '/skills/k/apiKey' } }, mine: null } },
      secrets: { providers: { skilldock: { source: 'file', path: '/srv/oc/skilldock-secrets.json', mode: 'json' } } },
    });
    expect(p.configChanges.join('\n')).not.toContain('s3cret');
    expect(p.secrets).toEqual({ k: 'key-1' });
  });

  it('never shows a plaintext key or env value the gateway held before in the diff', () => {
    const cfg = { skills: { entries: { k: { apiKey: 'old-plain-key' }, gone: { env: { TOKEN: 'old-env-value' }, apiKey: 'gone-key' } } } };
    const p = plan(cfg, { entries: new Map([['k', { enabled: null, env: {}, apiKey: 'new-key' }]]) }, { owned: ['k', 'gone'] });
    const diff = p.configChanges.join('\n');
    for (const secret of ['old-plain-key', 'new-key', 'old-env-value', 'gone-key']) expect(diff).not.toContain(secret);
    expect(diff).toContain('skills.entries.k.apiKey: "***" → {"source":"file","provider":"skilldock","id":"/skills/k/apiKey"}');
    expect(diff).toContain('skills.entries.gone: {"env":{"TOKEN":"***"},"apiKey":"***"} → (absent)');
  });

  it('keeps a key the gateway holds itself when Skilldock has none', () => {
    const cfg = { skills: { entries: { k: { apiKey: { source: 'env', provider: 'default', id: 'K' } } } } };
    expect(plan(cfg, { entries: new Map([['k', { enabled: null, env: {}, apiKey: null }]]) }, { owned: ['k'] }).patch).toEqual({});
  });

  it('says an apiKey is not delivered where no secrets file can be held', () => {
    const p = plan({}, { entries: new Map([['k', { enabled: null, env: {}, apiKey: 'v' }]]) }, { secrets: null });
    expect(p.patch).toEqual({});
    expect(p.notes).toContain("The apiKey of k is not delivered: this gateway's location cannot hold Skilldock's secrets file.");
  });

  it("puts an apiKey in the gateway's secret store by reference, and removes only its own reference", () => {
    const entries = new Map([['my-skill.v2', { enabled: null, env: {}, apiKey: 'v' }]]);
    const p = plan({}, { entries }, { secrets: { store: true } });
    const ref = { source: 'store', provider: 'default', id: storeSecretName('my-skill.v2') };
    expect(p.patch).toEqual({ skills: { entries: { 'my-skill.v2': { apiKey: ref } } } });
    expect(p.secrets).toEqual({ 'my-skill.v2': 'v' });
    expect(JSON.stringify(p.configChanges)).not.toContain('"v"');

    const gone = new Map([['my-skill.v2', { enabled: null, env: {}, apiKey: null }]]);
    const cfg = { skills: { entries: { 'my-skill.v2': { apiKey: ref } } } };
    expect(plan(cfg, { entries: gone }, { secrets: { store: true } }).patch).toEqual({ skills: { entries: { 'my-skill.v2': { apiKey: null } } } });
    // A store entry of the gateway's own, under another name, stays.
    const theirs = { skills: { entries: { 'my-skill.v2': { apiKey: { source: 'store', provider: 'default', id: 'OPENAI_API_KEY' } } } } };
    expect(plan(theirs, { entries: gone }, { secrets: { store: true } }).patch).toEqual({});
  });

  it('reads a store reference whose id the RPC redacted as its own only when it set that entry', () => {
    const entries: Desired['entries'] = new Map([['gem', { enabled: null, env: {}, apiKey: 'v' }]]);
    const redacted = { skills: { entries: { gem: { apiKey: { source: 'store', provider: 'default', id: '__OPENCLAW_REDACTED__' } } } } };
    const ownedName = { [storeSecretName('gem')]: 'sealed' };
    const run = (storeSecrets?: Record<string, string>, want = entries) =>
      planSync({
        config: redacted,
        model: readOpenClawModel(redacted, ctx),
        desired: { defaults: null, agents: [], entries: want, skills: new Map(), blocked: [] },
        owned: { entries: ['gem'], defaults: true, ...(storeSecrets ? { storeSecrets } : {}) },
        folders: { ours: new Map(), foreign: new Set() },
        secrets: { store: true },
      });
    expect(run(ownedName).patch).toEqual({});
    expect(run(undefined).patch).toEqual({ skills: { entries: { gem: { apiKey: { source: 'store', provider: 'default', id: storeSecretName('gem') } } } } });
    const none: Desired['entries'] = new Map([['gem', { enabled: null, env: {}, apiKey: null }]]);
    expect(run(ownedName, none).patch).toEqual({ skills: { entries: { gem: { apiKey: null } } } });
    expect(run(undefined, none).patch).toEqual({});
  });

  it('names store secrets in the store grammar, readable and distinct for keys that read alike', () => {
    const names = ['gem', 'my-skill', 'my_skill', 'MY-SKILL', '日本', 'x'.repeat(300)].map(storeSecretName);
    for (const n of names) expect(n).toMatch(/^[A-Z][A-Z0-9_]{0,127}$/);
    expect(names[0]).toMatch(/^SKILLDOCK_GEM_[0-9A-F]{8}$/);
    expect(new Set(names).size).toBe(names.length);
    expect(storeSecretName('gem')).toBe(names[0]);
  });

  it('writes new and changed folders, prunes only its own, leaves a foreign folder of the same name alone, never writes a blocked skill', () => {
    const p = plan(
      {},
      {
        skills: new Map([
          ['new', skill('new', 'h1')],
          ['same', skill('same', 'h2')],
          ['changed', skill('changed', 'h3')],
          ['taken', skill('taken', 'h4')],
        ]),
        blocked: ['bad'],
      },
      {
        ours: [
          ['same', 'h2'],
          ['changed', 'old'],
          ['old', 'h5'],
          ['bad', 'h6'],
        ],
        foreign: ['taken'],
      },
    );
    expect(p.folders).toEqual([
      { op: 'remove', name: 'bad', why: 'blocked by the scanner' },
      { op: 'write', name: 'changed', why: 'changed' },
      { op: 'write', name: 'new', why: 'new' },
      { op: 'remove', name: 'old', why: 'no longer in Skilldock' },
    ]);
    expect(p.conflicts).toEqual(['taken']);
  });
});

describe('the patch job logs show', () => {
  it('masks every entry env value and a plaintext apiKey, keeps SecretRefs and the rest', () => {
    const ref = { source: 'file', provider: 'skilldock', id: '/skills/gem' };
    const patch = {
      agents: { defaults: { skills: ['gem'] } },
      skills: { entries: { gem: { enabled: true, env: { GEM_TOKEN: 'tok-123' }, apiKey: ref }, old: { apiKey: 'sk-plain' }, gone: null } },
    };
    expect(maskedPatch(patch)).toEqual({
      agents: { defaults: { skills: ['gem'] } },
      skills: { entries: { gem: { enabled: true, env: { GEM_TOKEN: '***' }, apiKey: ref }, old: { apiKey: '***' }, gone: null } },
    });
    expect(JSON.stringify(patch)).toContain('tok-123');
    expect(maskedPatch({ agents: {} })).toEqual({ agents: {} });
  });
});
