import { describe, expect, it } from 'vitest';
import { MAX_SKILL_MD_BYTES, parseSkillMd } from './index';

const md = (fm: string, body = '# Body\n') => `---\n${fm}---\n${body}`;
const codes = (text: string, dirName?: string) => parseSkillMd(text, { dirName }).diagnostics.map((d) => `${d.severity}:${d.code}@${d.line}`);

describe('parseSkillMd: frontmatter structure', () => {
  it('reads a minimal skill, its body and body line', () => {
    const p = parseSkillMd(md('name: pdf\ndescription: Fill PDF forms.\n', '# PDF\n\nUse it.\n'), { dirName: 'pdf' });
    expect(p).toMatchObject({ valid: true, diagnostics: [] });
    expect(p.manifest).toMatchObject({ name: 'pdf', description: 'Fill PDF forms.', body: '# PDF\n\nUse it.\n', bodyLine: 5, skillKey: 'pdf' });
    expect(p.manifest).toMatchObject({
      userInvocable: true,
      disableModelInvocation: false,
      commandArgMode: 'raw',
      allowedTools: [],
      always: false,
      os: [],
      install: [],
    });
  });

  it('accepts a colon inside a quoted value, and repairs an unquoted one with a warning', () => {
    expect(parseSkillMd(md('name: a\ndescription: "Use this: when x"\n')).manifest.description).toBe('Use this: when x');
    const p = parseSkillMd(md('name: a\ndescription: Use this: when you need "x" done\nlicense: MIT\n'));
    expect(p.valid).toBe(true);
    expect(p.manifest.description).toBe('Use this: when you need "x" done');
    expect(p.manifest.license).toBe('MIT');
    expect(p.diagnostics).toEqual([
      { file: 'SKILL.md', line: 3, code: 'frontmatter.colon-in-value', severity: 'warning', message: expect.stringContaining('"description" contains ": "') },
    ]);
  });

  it('reports a colon in a nested value as a YAML error on its line (no silent drop)', () => {
    const p = parseSkillMd(md('name: a\ndescription: b\nmetadata:\n  openclaw:\n    emoji: a: b\n'), { dirName: 'a' });
    expect(p.valid).toBe(false);
    expect(p.diagnostics).toEqual([
      {
        file: 'SKILL.md',
        line: 6,
        code: 'frontmatter.yaml',
        severity: 'error',
        message: 'YAML syntax error: Nested mappings are not allowed in compact mappings. Put values that contain ": " in quotes',
      },
    ]);
    expect(p.manifest).toMatchObject({ name: 'a', description: '', bodyLine: 8, body: '# Body\n' });
  });

  it('reads multi-line block descriptions (literal and folded)', () => {
    const literal = parseSkillMd(md('name: a\ndescription: |\n  Line one.\n  Line two: with colon.\n'));
    expect(literal.manifest.description).toBe('Line one.\nLine two: with colon.');
    const folded = parseSkillMd(md('name: a\ndescription: >-\n  Folded\n  text.\nlicense: MIT\n'));
    expect(folded.manifest.description).toBe('Folded text.');
    expect(folded.valid).toBe(true);
  });

  it('tolerates CRLF and a BOM, keeping SKILL.md line numbers', () => {
    const text = '\uFEFF---\r\nname: a\r\ndescription: d\r\nbogus: 1\r\n---\r\n# Title\r\nbody\r\n';
    const p = parseSkillMd(text, { dirName: 'a' });
    expect(p.manifest).toMatchObject({ name: 'a', description: 'd', body: '# Title\nbody\n', bodyLine: 6 });
    expect(codes(text, 'a')).toEqual(['warning:key.unknown@4']);
  });

  it('missing frontmatter: an error on line 1, folder name and whole text as body', () => {
    const p = parseSkillMd('# Just markdown\n\nname: x\n', { dirName: 'my-skill' });
    expect(p.valid).toBe(false);
    expect(p.diagnostics.map((d) => [d.code, d.line, d.severity])).toEqual([['frontmatter.missing', 1, 'error']]);
    expect(p.manifest).toMatchObject({ name: 'my-skill', description: '', skillKey: 'my-skill', body: '# Just markdown\n\nname: x\n', bodyLine: 1 });
    expect(codes(' ---\nname: a\n---\n')).toEqual(['error:frontmatter.missing@1']);
  });

  it('unclosed, empty and non-mapping frontmatter are errors with lines', () => {
    const unclosed = parseSkillMd('---\nname: a\ndescription: b\n# Body\n', { dirName: 'a' });
    expect(unclosed.diagnostics).toEqual([expect.objectContaining({ code: 'frontmatter.unclosed', line: 1, severity: 'error' })]);
    expect(unclosed.diagnostics[0].message).toContain('no closing "---"');
    expect(unclosed.manifest.name).toBe('a');
    expect(codes('---\n---\nbody')).toEqual(['error:frontmatter.empty@2']);
    expect(codes('---\n- a\n- b\n---\n')).toEqual(['error:frontmatter.not-mapping@2']);
    expect(codes('---\njust a string\n---\n')).toEqual(['error:frontmatter.not-mapping@2']);
  });

  it('YAML syntax errors carry the SKILL.md line of the fault', () => {
    expect(codes(md('name: x\ndescription: y\nmetadata:\n  a: 1\n b: 2\n'))).toEqual(['error:frontmatter.yaml@6']);
    const dup = parseSkillMd(md('name: x\ndescription: y\nname: z\n'));
    expect(dup.diagnostics).toEqual([expect.objectContaining({ code: 'frontmatter.yaml', line: 4, message: 'YAML syntax error: Map keys must be unique' })]);
    expect(codes(md('name: x\ndescription: "open\n'))).toContain('error:frontmatter.yaml@4');
  });

  it('refuses an alias bomb without expanding it', () => {
    const bomb = ['a: &a [x,x,x,x,x,x,x,x,x,x]', ...'bcde'.split('').map((k, i) => `${k}: &${k} [${Array(10).fill(`*${'abcd'[i]}`).join(',')}]`)].join('\n');
    const p = parseSkillMd(md(`${bomb}\nname: x\ndescription: y\n`));
    expect(p.diagnostics.map((d) => d.code)).toEqual(['frontmatter.yaml']);
    expect(p.diagnostics[0].message).toMatch(/alias/i);
  });

  it('unresolved YAML tags are warnings, never code execution', () => {
    const p = parseSkillMd(md('name: x\ndescription: !!js/function "function(){}"\n'));
    expect(p.manifest.description).toBe('function(){}');
    expect(p.diagnostics.map((d) => `${d.code}@${d.line}`)).toEqual(['frontmatter.yaml-warning@3']);
  });

  it('never throws on hostile input', () => {
    for (const text of [
      '',
      '---',
      '---\n',
      '\u0000\u0001',
      '---\n: : :\n---\n',
      '---\n{[}]\n---\n',
      `---\nname: ${'x'.repeat(5000)}\n---\n`,
      '---\n? [a]\n: b\n---\n',
    ]) {
      const p = parseSkillMd(text, { dirName: 'd' });
      expect(p.valid).toBe(false);
      expect(p.manifest.name).toBe('d');
      expect(p.diagnostics.length).toBeGreaterThan(0);
    }
  });

  it('uses the file option in diagnostics', () => {
    expect(parseSkillMd('no frontmatter', { file: 'nested/SKILL.md' }).diagnostics[0].file).toBe('nested/SKILL.md');
  });
});

describe('parseSkillMd: size limit', () => {
  it('rejects a SKILL.md over 256,000 bytes, counting UTF-8 bytes', () => {
    const body = 'é'.repeat(128_001); // 128,001 characters, 256,002 bytes
    const p = parseSkillMd(md('name: a\ndescription: b\n', body), { dirName: 'a' });
    expect(p.valid).toBe(false);
    expect(p.diagnostics.map((d) => d.code)).toEqual(['file.too-large']);
    expect(p.diagnostics[0].message).toContain('the limit is 256,000');
    expect(p.manifest.name).toBe('a');
  });

  it('uses sizeBytes when given, and accepts exactly the limit', () => {
    const text = md('name: a\ndescription: b\n');
    expect(parseSkillMd(text, { sizeBytes: MAX_SKILL_MD_BYTES + 1 }).diagnostics.map((d) => d.code)).toEqual(['file.too-large']);
    expect(parseSkillMd(text, { sizeBytes: MAX_SKILL_MD_BYTES }).valid).toBe(true);
  });
});
