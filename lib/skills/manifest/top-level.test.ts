import { describe, expect, it } from 'vitest';
import { parseSkillMd, SKILL_NAME_RE } from './index';

const md = (fm: string) => `---\n${fm}---\nbody\n`;
const parse = (fm: string, dirName?: string) => parseSkillMd(md(fm), { dirName });
const codes = (fm: string, dirName?: string) => parse(fm, dirName).diagnostics.map((d) => `${d.severity}:${d.code}@${d.line}`);

describe('name', () => {
  it('accepts lowercase letters, digits and inner hyphens up to 64 characters', () => {
    for (const name of ['a', '1password', 'pdf-tools', 'a1-b2-c3', 'x'.repeat(64), 'a--b']) {
      expect(SKILL_NAME_RE.test(name), name).toBe(true);
      expect(parse(`name: "${name}"\ndescription: d\n`, name).valid, name).toBe(true);
    }
  });

  it.each([
    ['-lead', 'starts or ends with a hyphen'],
    ['trail-', 'starts or ends with a hyphen'],
    ['x'.repeat(65), 'is 65 characters long; the limit is 64'],
    ['PDF-Tools', 'has uppercase letters; write "pdf-tools"'],
    ['pdf_tools', 'may contain only lowercase ASCII letters, digits and hyphens'],
    ['café', 'may contain only lowercase ASCII letters, digits and hyphens'],
    ['a b', 'may contain only lowercase ASCII letters, digits and hyphens'],
  ])('rejects %j (name.invalid) and falls back to the folder name', (name, reason) => {
    const p = parse(`name: "${name}"\ndescription: d\n`, 'folder');
    expect(p.valid).toBe(false);
    expect(p.diagnostics).toEqual([{ file: 'SKILL.md', line: 2, code: 'name.invalid', severity: 'error', message: expect.stringContaining(reason) }]);
    expect(p.diagnostics[0].message).toContain('the folder name "folder" is used instead');
    expect(p.manifest.name).toBe('folder');
    expect(p.manifest.skillKey).toBe('folder');
  });

  it('a name of another type is name.invalid; a missing or blank name is name.missing', () => {
    expect(codes('name: 123\ndescription: d\n', 'f')).toEqual(['error:name.invalid@2']);
    expect(codes('name: [a]\ndescription: d\n', 'f')).toEqual(['error:name.invalid@2']);
    expect(codes('description: d\n', 'f')).toEqual(['error:name.missing@undefined']);
    expect(codes('name: "  "\ndescription: d\n', 'f')).toEqual(['error:name.missing@2']);
    expect(codes('name:\ndescription: d\n', 'f')).toEqual(['error:name.missing@2']);
  });

  it('a valid name that differs from the folder is a warning, not a rename', () => {
    const p = parse('name: pdf\ndescription: d\n', 'pdf-v2');
    expect(p.valid).toBe(true);
    expect(p.manifest.name).toBe('pdf');
    expect(p.diagnostics).toEqual([
      {
        file: 'SKILL.md',
        line: 2,
        code: 'name.dir-mismatch',
        severity: 'warning',
        message: 'name "pdf" differs from its folder "pdf-v2"; rename one so they match (the skill is known as "pdf")',
      },
    ]);
    expect(parse('name: pdf\ndescription: d\n').diagnostics).toEqual([]);
  });
});

describe('description', () => {
  it('is trimmed and accepted up to 1024 characters', () => {
    expect(parse(`name: a\ndescription: "  ${'d'.repeat(1024)}  "\n`).manifest.description).toHaveLength(1024);
    expect(parse(`name: a\ndescription: ${'é'.repeat(1024)}\n`).valid).toBe(true);
  });

  it('is required, non-blank and a string; over 1024 characters it is a warning', () => {
    expect(codes('name: a\n')).toEqual(['error:description.missing@undefined']);
    expect(codes('name: a\ndescription: "   "\n')).toEqual(['error:description.missing@3']);
    expect(codes(`name: a\ndescription: ${'d'.repeat(1025)}\n`)).toEqual(['warning:description.too-long@3']);
    expect(codes('name: a\ndescription:\n  - a\n  - b\n')).toEqual(['error:description.invalid@4']);
  });
});

describe('optional keys', () => {
  it('reads every optional key', () => {
    const p = parse(
      [
        'name: a',
        'description: d',
        'license: Apache-2.0',
        'compatibility: Requires git and network access',
        'allowed-tools: Bash(git:*) Read  Write',
        'homepage: https://example.com/a',
        'user-invocable: false',
        'disable-model-invocation: true',
        'command-dispatch: tool',
        'command-tool: exec',
        'command-arg-mode: raw',
        'deps: [pip:requests]',
        'exclude_deps: []',
        '',
      ].join('\n'),
    );
    expect(p.diagnostics).toEqual([]);
    expect(p.manifest).toMatchObject({
      license: 'Apache-2.0',
      compatibility: 'Requires git and network access',
      allowedTools: ['Bash(git:*)', 'Read', 'Write'],
      homepage: 'https://example.com/a',
      userInvocable: false,
      disableModelInvocation: true,
      commandDispatch: 'tool',
      commandTool: 'exec',
      commandArgMode: 'raw',
    });
  });

  it('accepts allowed-tools as a YAML list', () => {
    expect(parse('name: a\ndescription: d\nallowed-tools:\n  - Read\n  - Grep\n').manifest.allowedTools).toEqual(['Read', 'Grep']);
  });

  it('unknown top-level keys are warnings at their line', () => {
    const p = parse('name: a\ndescription: d\nversion: 1.0\nauthor: me\n');
    expect(p.valid).toBe(true);
    expect(p.diagnostics.map((d) => `${d.code}@${d.line}`)).toEqual(['key.unknown@4', 'key.unknown@5']);
    expect(p.diagnostics[0].message).toContain('unknown key "version"');
  });

  it('homepage must be an http(s) URL (warning, left out)', () => {
    for (const url of ['ftp://example.com', 'javascript:alert(1)', 'example.com', 'https://exa mple.com']) {
      const p = parse(`name: a\ndescription: d\nhomepage: "${url}"\n`);
      expect(
        p.diagnostics.map((d) => `${d.severity}:${d.code}@${d.line}`),
        url,
      ).toEqual(['warning:homepage.invalid@4']);
      expect(p.manifest.homepage).toBeUndefined();
    }
  });

  it('wrong types are diagnostics, with the default kept', () => {
    const p = parse('name: a\ndescription: d\nlicense: [MIT]\nuser-invocable: maybe\ndisable-model-invocation: 1\nallowed-tools: {a: 1}\n');
    expect(p.diagnostics.map((d) => `${d.severity}:${d.code}@${d.line}`)).toEqual([
      'error:key.type@4',
      'error:key.type@7',
      'error:key.type@5',
      'error:key.type@6',
    ]);
    expect(p.manifest).toMatchObject({ userInvocable: true, disableModelInvocation: false, allowedTools: [] });
    expect(p.manifest.license).toBeUndefined();
    expect(p.diagnostics[2].message).toBe('"user-invocable" must be true or false, but it is the string "maybe"; the default true is used');
  });

  it('reads "true"/"false" strings as booleans with a warning', () => {
    const p = parse('name: a\ndescription: d\nuser-invocable: "false"\n');
    expect(p.manifest.userInvocable).toBe(false);
    expect(p.diagnostics.map((d) => `${d.severity}:${d.code}`)).toEqual(['warning:key.type']);
  });

  it('command dispatch: only "tool", which needs command-tool', () => {
    expect(codes('name: a\ndescription: d\ncommand-dispatch: tool\n')).toEqual(['error:command-tool.missing@4']);
    expect(codes('name: a\ndescription: d\ncommand-dispatch: model\n')).toEqual(['error:command-dispatch.invalid@4']);
    expect(codes('name: a\ndescription: d\ncommand-tool: exec\n')).toEqual(['warning:command-tool.unused@4']);
    const mode = parse('name: a\ndescription: d\ncommand-arg-mode: parsed\n');
    expect(mode.diagnostics.map((d) => `${d.severity}:${d.code}@${d.line}`)).toEqual(['warning:command-arg-mode.invalid@4']);
    expect(mode.manifest.commandArgMode).toBe('raw');
  });
});
