import { describe, expect, it } from 'vitest';
import { baseCost, displayLocation, escapeXml, renderCatalog, renderSkills, skillCosts, truncationNote } from './prompt';

const weather = { name: 'weather', description: 'Forecasts & "alerts"', location: '/home/ada/skills/weather/SKILL.md' };
const github = { name: 'github', description: "Use gh's <api>", location: '/opt/skills/github/SKILL.md' };

describe('prompt catalog', () => {
  it('renders the exact layout, byte for byte, in name order with escaping and ~/ paths', () => {
    expect(renderSkills([weather, github], 'full', '/home/ada')).toBe(
      [
        '',
        '',
        'The following skills provide specialized instructions for specific tasks.',
        "Use the read tool to load a skill's file when the task matches its description.",
        'When a skill file references a relative path, resolve it against the skill directory (parent of SKILL.md / dirname of the path) and use that absolute path in tool commands.',
        '',
        '<available_skills>',
        '  <skill>',
        '    <name>github</name>',
        '    <description>Use gh&apos;s &lt;api&gt;</description>',
        '    <location>/opt/skills/github/SKILL.md</location>',
        '  </skill>',
        '  <skill>',
        '    <name>weather</name>',
        '    <description>Forecasts &amp; &quot;alerts&quot;</description>',
        '    <location>~/skills/weather/SKILL.md</location>',
        '  </skill>',
        '</available_skills>',
      ].join('\n'),
    );
  });

  it('renders nothing for no skills', () => {
    expect(renderSkills([], 'full', null)).toBe('');
    expect(renderCatalog([], { maxSkills: 150, maxChars: 18_000 }, null)).toMatchObject({ text: '', chars: 0, included: [], truncated: false });
  });

  it('costs 368 + 97 per skill plus the escaped fields (compact: 361 + 65), measured on the rendered string', () => {
    expect(baseCost('full', null)).toBe(368);
    expect(baseCost('compact', null)).toBe(361);
    const [g] = skillCosts([github], null);
    const esc = (s: string) => escapeXml(s).length;
    expect(g.full).toBe(97 + esc(github.name) + esc(github.description) + esc(github.location));
    expect(g.compact).toBe(65 + esc(github.name) + esc(github.location));
    const r = renderCatalog([weather, github], { maxSkills: 150, maxChars: 18_000 }, '/home/ada');
    expect(r.chars).toBe(r.text.length);
    expect(r.chars).toBe(368 + skillCosts([weather, github], '/home/ada').reduce((n, c) => n + c.full, 0));
    expect(r.tokens).toBe(Math.ceil(r.chars / 4));
  });

  it('escapes names that would break the XML', () => {
    const evil = { name: '</name><x>&', description: "'", location: '/s/a"b' };
    const text = renderSkills([evil], 'full', null);
    expect(text).toContain('<name>&lt;/name&gt;&lt;x&gt;&amp;</name>');
    expect(text).toContain('<location>/s/a&quot;b</location>');
    expect(text.match(/<skill>/g)).toHaveLength(1);
  });

  it('falls back to the compact form, then to the skills that fit behind the note', () => {
    const skills = Array.from({ length: 20 }, (_, i) => ({
      name: `s${String(i).padStart(2, '0')}`,
      description: 'd'.repeat(200),
      location: `/k/s${i}/SKILL.md`,
    }));
    const full = renderCatalog(skills, { maxSkills: 150, maxChars: 1e6 }, null);
    expect(full.form).toBe('full');
    const compact = renderCatalog(skills, { maxSkills: 150, maxChars: full.chars - 1 }, null);
    expect(compact).toMatchObject({ form: 'compact', truncated: false });
    expect(compact.text).toContain('matches its name.');
    expect(compact.text).not.toContain('<description>');
    const tight = renderCatalog(skills, { maxSkills: 150, maxChars: 1000 }, null);
    expect(tight.truncated).toBe(true);
    expect(tight.chars).toBeLessThanOrEqual(1000);
    expect(tight.text.startsWith(truncationNote(tight.included.length, 20))).toBe(true);
    // One more skill would not fit: the search found the most.
    const oneMore = `${truncationNote(tight.included.length + 1, 20)}\n${renderSkills(skills.slice(0, tight.included.length + 1), 'compact', null)}`;
    expect(oneMore.length).toBeGreaterThan(1000);
    expect([...tight.included, ...tight.cut]).toEqual(skills.map((s) => s.name));
  });

  it('caps the count at maxSkills in name order, with the note', () => {
    const r = renderCatalog([weather, github], { maxSkills: 1, maxChars: 18_000 }, null);
    expect(r).toMatchObject({ included: ['github'], cut: ['weather'], truncated: true, form: 'full' });
    expect(r.text.startsWith(truncationNote(1, 2))).toBe(true);
  });

  it('shows home paths as ~/ only on a path boundary', () => {
    expect(displayLocation('/home/ada/x', '/home/ada')).toBe('~/x');
    expect(displayLocation('/home/adam/x', '/home/ada')).toBe('/home/adam/x');
    expect(displayLocation('/home/ada/x', '/home/ada/')).toBe('~/x');
    expect(displayLocation('/x', null)).toBe('/x');
  });
});
