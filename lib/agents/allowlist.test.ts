import { describe, expect, it } from 'vitest';
import { decide, effectiveAllowlist, normalizeList, type SkillList, unknownNames } from './allowlist';

const ALL = ['docs-search', 'github', 'weather'];
const visible = (defaults: SkillList, agent: SkillList, deny: string[] = []) => {
  const list = effectiveAllowlist({ defaults, agent, deny });
  return ALL.filter((n) => decide(list, n).allowed);
};

describe('allowlist semantics', () => {
  it.each([
    [null, null, ALL],
    [null, [], []],
    [null, ['github'], ['github']],
    [['github', 'weather'], null, ['github', 'weather']],
    [['github', 'weather'], ['docs-search'], ['docs-search']],
    [['github', 'weather'], [], []],
    [[], null, []],
    [[], [], []],
    [[], ['weather'], ['weather']],
  ] as [SkillList, SkillList, string[]][])('defaults %j, agent %j → %j', (defaults, agent, expected) => {
    expect(visible(defaults, agent)).toEqual(expected);
  });

  it('deny wins over allow and over unrestricted', () => {
    expect(visible(null, null, ['github'])).toEqual(['docs-search', 'weather']);
    expect(visible(null, ['github', 'weather'], ['github'])).toEqual(['weather']);
    expect(decide(effectiveAllowlist({ defaults: null, agent: ['github'], deny: ['github'] }), 'github')).toMatchObject({ allowed: false, by: 'deny' });
  });

  it('trims names and drops empty ones: a list of blanks is empty, so no skills', () => {
    expect(normalizeList([' github ', '', 'github', '  '])).toEqual(['github']);
    expect(visible(null, ['  ', ''])).toEqual([]);
    expect(effectiveAllowlist({ defaults: null, agent: ['  '] }).rule).toEqual({ kind: 'none', from: 'agent' });
  });

  it('says which rule decided', () => {
    const inherited = effectiveAllowlist({ defaults: ['github'], agent: null });
    expect(decide(inherited, 'github').why).toContain('defaults list the agent inherits');
    expect(decide(inherited, 'weather')).toMatchObject({ allowed: false, by: 'list' });
    expect(decide(effectiveAllowlist({ defaults: ['github'], agent: ['weather'] }), 'github').why).toContain('replaces the defaults');
  });

  it('names unknown skills of the lists, sorted, once', () => {
    const list = effectiveAllowlist({ defaults: null, agent: ['github', 'nope', 'nope'] });
    expect(unknownNames(list, ['ghost'], new Set(ALL))).toEqual(['ghost', 'nope']);
  });
});
