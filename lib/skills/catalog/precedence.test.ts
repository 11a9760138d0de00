import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { discoverSkills } from './discover';
import { buildInventory } from './inventory';
import { makeTmp, sixRoots, writeSkill } from './testutil';

let tmp: string;
beforeEach(() => {
  tmp = makeTmp();
});
afterEach(() => {
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe('precedence across all six root kinds', () => {
  it('the same name in every root: workspace wins, five shadowed in source order', async () => {
    const roots = sixRoots(tmp);
    for (const r of roots) writeSkill(path.join(r.path, 'weather'), 'weather', { 'from.txt': r.kind });
    const { copies } = await discoverSkills(roots);
    const [entry] = buildInventory(copies);
    expect(entry.name).toBe('weather');
    expect(entry.winner.source).toBe('workspace');
    expect(entry.shadowed.map((c) => c.source)).toEqual(['project', 'personal', 'managed', 'bundled', 'extra']);
    // copies of different roots have different ids and all keep their own files
    expect(new Set(copies.map((c) => c.id)).size).toBe(6);

    fs.rmSync(path.join(roots[0].path, 'weather'), { recursive: true });
    const [next] = buildInventory((await discoverSkills(roots)).copies);
    expect(next.winner.source).toBe('project');
    expect(next.shadowed.map((c) => c.source)).toEqual(['personal', 'managed', 'bundled', 'extra']);
  });

  it('is independent of the order roots are passed in', async () => {
    const roots = sixRoots(tmp);
    for (const r of roots.slice(2)) writeSkill(path.join(r.path, 'x'));
    const [entry] = buildInventory((await discoverSkills([...roots].reverse())).copies);
    expect(entry.winner.source).toBe('personal');
    expect(entry.shadowed.map((c) => c.source)).toEqual(['managed', 'bundled', 'extra']);
  });

  it('between extra dirs the configured order decides', async () => {
    const roots = sixRoots(tmp, 3);
    const extras = roots.filter((r) => r.kind === 'extra');
    for (const r of extras) writeSkill(path.join(r.path, 'tool'));
    const [entry] = buildInventory((await discoverSkills(roots)).copies);
    expect([entry.winner, ...entry.shadowed].map((c) => c.root)).toEqual(extras.map((r) => r.path));
  });

  it('groups by declared name, not folder, and a grouped copy competes like any other', async () => {
    const roots = sixRoots(tmp);
    writeSkill(path.join(roots[3].path, 'weather-v2'), 'weather'); // managed, folder name differs
    writeSkill(path.join(roots[1].path, 'team', 'weather')); // project, in a group
    writeSkill(path.join(roots[4].path, 'pdf'));
    const inv = buildInventory((await discoverSkills(roots)).copies);
    expect(inv.map((e) => e.name)).toEqual(['pdf', 'weather']);
    const weather = inv[1];
    expect(weather.winner.source).toBe('project');
    expect(weather.winner.relDir).toBe('team/weather');
    expect(weather.shadowed.map((c) => [c.source, c.relDir])).toEqual([['managed', 'weather-v2']]);
    expect(inv[0].shadowed).toEqual([]);
  });

  it('keeps invalid copies under their folder name', async () => {
    const roots = sixRoots(tmp);
    const broken = path.join(roots[0].path, 'weather');
    fs.mkdirSync(broken, { recursive: true });
    fs.writeFileSync(path.join(broken, 'SKILL.md'), '---\nname: [unclosed\n---\nbody\n');
    writeSkill(path.join(roots[3].path, 'weather'));
    const inv = buildInventory((await discoverSkills(roots)).copies);
    expect(inv).toHaveLength(1);
    expect(inv[0].winner.source).toBe('workspace');
    expect(inv[0].winner.parsed.valid).toBe(false);
    expect(inv[0].shadowed.map((c) => [c.source, c.parsed.valid])).toEqual([['managed', true]]);
  });
});
