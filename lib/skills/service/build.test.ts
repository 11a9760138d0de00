// The watcher path of the catalog build on real folders: a change inside one skill folder reloads
// that folder only, every other skill stays the same object; anything else asks for a full build.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CopyCache } from '../catalog';
import { makeTmp, skillMd, writeSkill } from '../catalog/testutil';
import { createHostTarget } from '../gating';
import { createSkillSearch } from '../search';
import type { ScanResult } from '../types';
import { type BuildInput, buildCatalog, searchDocs, updateCatalog } from './build';

let tmp: string;
let root: string;
let input: BuildInput;
beforeEach(() => {
  tmp = makeTmp();
  root = path.join(tmp, 'skills');
  for (const n of ['alpha', 'beta', 'gamma']) writeSkill(path.join(root, n), n, { 'notes.md': `${n} notes\n` });
  input = {
    roots: [{ kind: 'workspace', path: root, precedence: 0 }],
    discover: { allowSymlinkTargets: [], maxCandidatesPerRoot: 300, maxSkillFileBytes: 256_000, groupDepth: 1 },
    config: {},
    entries: new Map(),
    acks: new Map(),
    target: createHostTarget({ env: {} }),
    scans: new Map<string, ScanResult>(),
    cache: new CopyCache({ racyMs: 0 }),
  };
});
afterEach(() => {
  fs.rmSync(tmp, { recursive: true, force: true });
});

const byName = <T extends { name: string }>(skills: T[]) => new Map(skills.map((s) => [s.name, s]));

describe('updateCatalog', () => {
  it('reloads only the skill a change is inside of; the others are the same objects', async () => {
    const prev = await buildCatalog(input);
    const md = path.join(root, 'beta', 'SKILL.md');
    fs.writeFileSync(md, skillMd('beta', 'Beta now talks about zeppelins.'));
    const next = await updateCatalog(prev, [md], input);
    expect(next).not.toBeNull();
    const before = byName(prev.skills);
    const after = byName(next!.skills);
    expect(after.get('alpha')).toBe(before.get('alpha'));
    expect(after.get('gamma')).toBe(before.get('gamma'));
    expect(after.get('beta')).not.toBe(before.get('beta'));
    expect(after.get('beta')!.copy.parsed.manifest.description).toBe('Beta now talks about zeppelins.');
    expect(after.get('beta')!.copy.contentHash).not.toBe(before.get('beta')!.copy.contentHash);
    expect(input.scans.has(after.get('beta')!.copy.contentHash)).toBe(true);

    // The search index follows by document: the new word is found, the old text no longer is.
    const search = createSkillSearch();
    await search.sync(searchDocs(prev.skills));
    expect(search.search('zeppelins')).toEqual([]);
    await search.sync(searchDocs(next!.skills));
    expect(search.search('zeppelins').map((h) => h.name)).toEqual(['beta']);
    expect(search.size).toBe(3);
  });

  it('sees a file added in a subfolder of a known skill', async () => {
    const prev = await buildCatalog(input);
    const file = path.join(root, 'gamma', 'scripts', 'run.sh');
    fs.mkdirSync(path.dirname(file));
    fs.writeFileSync(file, 'echo hi\n');
    const next = await updateCatalog(prev, [path.dirname(file), file], input);
    expect(
      byName(next!.skills)
        .get('gamma')!
        .copy.files.map((f) => f.path),
    ).toEqual(['SKILL.md', 'notes.md', 'scripts/run.sh']);
  });

  it('asks for a full build when a change is not inside a known skill folder', async () => {
    const prev = await buildCatalog(input);
    writeSkill(path.join(root, 'delta'));
    expect(await updateCatalog(prev, [path.join(root, 'delta', 'SKILL.md')], input)).toBeNull();
    expect(await updateCatalog(prev, [path.join(root, 'delta')], input)).toBeNull();
    fs.rmSync(path.join(root, 'alpha'), { recursive: true });
    expect(await updateCatalog(prev, [path.join(root, 'alpha')], input)).toBeNull();
    expect(await updateCatalog(prev, [path.join(root, 'alpha', 'SKILL.md')], input)).toBeNull();
    const full = await buildCatalog(input);
    expect(full.skills.map((s) => s.name)).toEqual(['beta', 'delta', 'gamma']);
  });
});

/** A skill that needs TOKEN and declares `skillKey` in its metadata. */
function keyed(name: string, skillKey?: string) {
  const meta = ['metadata:', '  openclaw:', ...(skillKey ? [`    skillKey: ${skillKey}`] : []), '    requires:', '      env: [SHARED_TOKEN]'];
  const dir = path.join(root, name);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'SKILL.md'), ['---', `name: ${name}`, `description: The ${name} skill.`, ...meta, '---', '', 'Body.', ''].join('\n'));
}

describe('skillKey ownership', () => {
  const entry = { envNames: ['SHARED_TOKEN'], hasApiKey: false, config: {} };

  it("does not give a skill that claims another skill's key that skill's entry: the owner keeps it", async () => {
    keyed('vault');
    keyed('mallory', 'vault');
    input.entries = new Map([['vault', entry]]);
    const skills = byName((await buildCatalog(input)).skills);
    expect(skills.get('vault')).toMatchObject({ status: 'ready', keyOwner: 'vault' });
    const m = skills.get('mallory')!;
    expect(m).toMatchObject({ skillKey: 'vault', keyOwner: 'vault', status: 'needs-setup' });
    expect(m.gating.eligible).toBe(false);
    expect(m.gating.reasons[0]).toContain('skillKey "vault" belongs to the skill vault');
    expect(m.gating.missing.env).toEqual(['SHARED_TOKEN']);
  });

  it('keeps a custom key with its first owner when another skill claims it later', async () => {
    keyed('zeta', 'shared-key');
    input.entries = new Map([['shared-key', entry]]);
    input.keyOwners = new Map();
    const first = await buildCatalog(input);
    expect(byName(first.skills).get('zeta')).toMatchObject({ status: 'ready', keyOwner: 'zeta' });
    keyed('aaa-claimant', 'shared-key');
    const skills = byName((await buildCatalog(input)).skills);
    expect(skills.get('zeta')).toMatchObject({ status: 'ready', keyOwner: 'zeta' });
    expect(skills.get('aaa-claimant')).toMatchObject({ status: 'needs-setup', keyOwner: 'zeta' });
  });

  it('gives a key several skills claim at once, none named after it, to none of them', async () => {
    keyed('one', 'pooled');
    keyed('two', 'pooled');
    input.entries = new Map([['pooled', entry]]);
    const skills = byName((await buildCatalog(input)).skills);
    for (const n of ['one', 'two']) {
      expect(skills.get(n), n).toMatchObject({ status: 'needs-setup', keyOwner: null });
      expect(skills.get(n)!.gating.reasons[0]).toContain('claimed by several skills');
    }
  });
});

describe('search sync', () => {
  it('adds, discards and re-indexes by document, and takes a status change without re-indexing', async () => {
    const doc = (id: string, body: string, status = 'ready') => ({
      id,
      name: id,
      description: `${id} skill`,
      body,
      source: 'workspace' as const,
      status,
      eligible: true,
    });
    const search = createSkillSearch();
    await search.sync([doc('one', 'apples'), doc('two', 'pears')]);
    expect(search.search('apples').map((h) => h.id)).toEqual(['one']);
    await search.sync([doc('two', 'pears', 'blocked'), doc('three', 'apples and plums')]);
    expect(search.size).toBe(2);
    expect(search.search('apples').map((h) => h.id)).toEqual(['three']);
    expect(search.search('pears', { status: ['blocked'] }).map((h) => h.id)).toEqual(['two']);
    expect(search.search('pears', { status: ['ready'] })).toEqual([]);
    await search.sync([doc('two', 'cherries', 'blocked'), doc('three', 'apples and plums')]);
    expect(search.search('pears')).toEqual([]);
    expect(search.search('cherries').map((h) => h.id)).toEqual(['two']);
  });
});
