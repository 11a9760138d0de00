import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { agentDescription, MAX_DESCRIPTION, parseSkillMd } from './index';

const ROOT = path.resolve(__dirname, '../../../test/fixtures/skills-real');
const folders = ['anthropic', 'openclaw'].flatMap((source) =>
  fs
    .readdirSync(path.join(ROOT, source), { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => ({ source, dir: d.name, file: path.join(ROOT, source, d.name, 'SKILL.md') })),
);

/** Real skills that break a rule, with the exact diagnostic (none today: an over-long description is only a warning). */
const GENUINELY_INVALID: Record<string, object[]> = {};
/** Real skills that are valid but carry a warning. */
const WARNINGS: Record<string, string[]> = { 'openclaw/spotify-player': ['install.key-unknown'], 'anthropic/claude-api': ['description.too-long'] };

describe('real published skills (test/fixtures/skills-real)', () => {
  it('finds every fixture folder', () => {
    expect(folders.filter((f) => f.source === 'anthropic')).toHaveLength(12);
    expect(folders.filter((f) => f.source === 'openclaw')).toHaveLength(23);
  });

  for (const { source, dir, file } of folders) {
    const key = `${source}/${dir}`;
    it(`${key} parses as its frontmatter says`, () => {
      const text = fs.readFileSync(file, 'utf8');
      const parsed = parseSkillMd(text, { dirName: dir, sizeBytes: fs.statSync(file).size });
      if (GENUINELY_INVALID[key]) {
        expect(parsed.valid).toBe(false);
        expect(parsed.diagnostics).toEqual(GENUINELY_INVALID[key]);
      } else {
        expect(parsed.valid).toBe(true);
        expect(parsed.diagnostics.map((d) => d.code)).toEqual(WARNINGS[key] ?? []);
      }
      // An independent read of the same frontmatter: what the file says.
      const lines = text.split('\n');
      const close = lines.indexOf('---', 1);
      const fm = parseYaml(lines.slice(1, close).join('\n')) as Record<string, unknown>;
      const m = parsed.manifest;
      expect(m.name).toBe(fm.name);
      expect(m.name).toBe(dir);
      expect(m.description).toBe(String(fm.description).trim());
      expect(m.license).toBe(fm.license);
      expect(m.homepage).toBe(fm.homepage);
      expect(m.userInvocable).toBe(true);
      expect(m.disableModelInvocation).toBe(false);
      expect(m.commandArgMode).toBe('raw');
      expect(m.skillKey).toBe(dir);
      expect(m.metadataKey).toBe(fm.metadata ? 'openclaw' : undefined);
      expect(m.metadata).toEqual(fm.metadata ?? {});
      expect(m.bodyLine).toBe(close + 2);
      expect(m.body).toBe(lines.slice(close + 1).join('\n'));
    });
  }

  it("keeps claude-api's 1,068-character description usable: valid, warned, and cut for agents with a marker", () => {
    const file = path.join(ROOT, 'anthropic/claude-api/SKILL.md');
    const parsed = parseSkillMd(fs.readFileSync(file, 'utf8'), { dirName: 'claude-api' });
    expect(parsed.valid).toBe(true);
    expect(parsed.diagnostics).toEqual([
      {
        file: 'SKILL.md',
        line: 3,
        code: 'description.too-long',
        severity: 'warning',
        message: '"description" is 1068 characters long; the limit is 1024. Agents see only the first 1024; move details into the body',
      },
    ]);
    expect([...parsed.manifest.description]).toHaveLength(1068);
    const shown = agentDescription(parsed.manifest.description);
    expect(shown.truncated).toBe(true);
    expect([...shown.text].length).toBeLessThanOrEqual(MAX_DESCRIPTION);
    expect(shown.text.endsWith('…')).toBe(true);
    expect(parsed.manifest.description.startsWith(shown.text.slice(0, -1))).toBe(true);
    expect(agentDescription('short')).toEqual({ text: 'short', truncated: false });
  });
});
