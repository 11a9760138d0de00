import { describe, expect, it } from 'vitest';
import { allows, changesOf, type Draft, type MatrixAgent, rowOf, setCells, setOwn } from './matrix-draft';

const agent = (id: string, skills: string[] | null): MatrixAgent => ({ id, revision: 3, skills });
const unrestricted = { skills: null, unrestricted: true, revision: 0 };
const listed = { skills: ['b'], unrestricted: false, revision: 1 };
const CATALOG = ['a', 'b', 'c'];
const empty: Draft = new Map();

describe('matrix draft', () => {
  it('giving an inheriting agent its own list seeds it with what it inherits: nothing changes until a box is ticked', () => {
    const a = agent('x', null);
    const d = setOwn(empty, a, unrestricted, CATALOG, true);
    expect([...rowOf(d, a).skills]).toEqual(CATALOG);
    expect(CATALOG.every((n) => allows(rowOf(d, a), unrestricted, n))).toBe(true);
    expect(changesOf(d, [a])).toEqual([{ agentId: 'x', revision: 3, skills: ['a', 'b', 'c'] }]);
    expect([...rowOf(setOwn(empty, a, listed, CATALOG, true), a).skills]).toEqual(['b']);
  });

  it('ticks and unticks only agents with their own list, and keeps names the catalog does not have', () => {
    const own = agent('own', ['a', 'ghost']);
    const inh = agent('inh', null);
    const { draft, skipped } = setCells(empty, [own, inh], ['c'], true);
    expect(skipped).toBe(1);
    expect(changesOf(draft, [own, inh])).toEqual([{ agentId: 'own', revision: 3, skills: ['a', 'ghost', 'c'] }]);
    const back = setCells(draft, [own], ['c'], false).draft;
    expect(back.size).toBe(0);
    const gone = setCells(empty, [own], CATALOG, false).draft;
    expect(changesOf(gone, [own])[0].skills).toEqual(['ghost']);
  });

  it('returning an agent to the defaults sends null; switching back to its list is no change', () => {
    const own = agent('own', ['a']);
    const d = setOwn(empty, own, listed, CATALOG, false);
    expect(changesOf(d, [own])).toEqual([{ agentId: 'own', revision: 3, skills: null }]);
    expect(allows(rowOf(d, own), listed, 'a')).toBe(false);
    expect(setOwn(d, own, listed, CATALOG, true).size).toBe(0);
  });
});
