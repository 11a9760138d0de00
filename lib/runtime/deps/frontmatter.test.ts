import { describe, expect, it } from 'vitest';
import { formatSpec } from '../spec';
import { parseSkillDeps, splitFrontMatter } from './frontmatter';

const md = (fm: string) => `---\n${fm}---\n# Body\n\ndeps:\n  - pip:not-frontmatter\n`;
const specs = (entries: { spec: Parameters<typeof formatSpec>[0] }[] | null) => entries?.map((e) => formatSpec(e.spec)) ?? null;

describe('parseSkillDeps: lists', () => {
  it('reads a block list with every prefix, quoted items, and 1-based SKILL.md lines', () => {
    const r = parseSkillDeps(
      md(`name: x
description: y
deps:
  - pip:psycopg2-binary
  - "pip:requests>=2.31"
  - 'pip:psycopg[binary]'
  - npm:typescript
  - npm:@aiagentwiki/cli
  - system:ffmpeg
  - pandoc
  - github:cli/cli@v2.40.0
exclude_deps:
  - pip:my_local_helper
`),
    );
    expect(r.diagnostics).toEqual([]);
    expect(specs(r.declared)).toEqual([
      'pip:psycopg2-binary',
      'pip:requests>=2.31',
      'pip:psycopg[binary]',
      'npm:typescript',
      'npm:@aiagentwiki/cli',
      'system:ffmpeg',
      'system:pandoc',
      'github:cli/cli@v2.40.0',
    ]);
    expect(r.declared!.map((e) => e.line)).toEqual([5, 6, 7, 8, 9, 10, 11, 12]);
    expect(r.declared![2].spec.extras).toEqual(['binary']);
    expect(r.declared![1].raw).toBe('pip:requests>=2.31');
    expect(specs(r.excluded)).toEqual(['pip:my_local_helper']);
    expect(r.excluded[0].line).toBe(14);
  });

  it('reads flow lists, including a multi-line one', () => {
    const r = parseSkillDeps(md(`deps: [pip:requests, "npm:@scope/pkg@^1.2", ffmpeg]\nexclude_deps: [\n  pip:foo,\n  npm:bar ]\n`));
    expect(r.diagnostics).toEqual([]);
    expect(specs(r.declared)).toEqual(['pip:requests', 'npm:@scope/pkg@^1.2', 'system:ffmpeg']);
    expect(specs(r.excluded)).toEqual(['pip:foo', 'npm:bar']);
    expect(r.excluded.map((e) => e.line)).toEqual([4, 5]);
  });

  it('normalises CRLF and a BOM, keeping line numbers', () => {
    const r = parseSkillDeps('\uFEFF---\r\nname: x\r\ndeps:\r\n  - pip:requests\r\n  - npm:zod\r\n---\r\nbody\r\n');
    expect(r.diagnostics).toEqual([]);
    expect(specs(r.declared)).toEqual(['pip:requests', 'npm:zod']);
    expect(r.declared!.map((e) => e.line)).toEqual([4, 5]);
  });

  it('declared is null when deps is absent; an empty flow list is an authoritative empty list', () => {
    expect(parseSkillDeps(md('name: x\n')).declared).toBeNull();
    expect(parseSkillDeps('# no front matter\ndeps: [pip:x]\n')).toEqual({ declared: null, excluded: [], diagnostics: [] });
    const empty = parseSkillDeps(md('deps: []\n'));
    expect(empty.declared).toEqual([]);
    expect(empty.diagnostics).toEqual([]);
  });

  it('a deps key with no items counts as empty, with a diagnostic that says so', () => {
    const r = parseSkillDeps(md('name: x\ndeps:\n'));
    expect(r.declared).toEqual([]);
    expect(r.diagnostics).toHaveLength(1);
    expect(r.diagnostics[0]).toMatchObject({ key: 'deps', line: 3 });
    expect(r.diagnostics[0].message).toContain('deps: []');
  });
});

describe('parseSkillDeps: diagnostics, never silent drops', () => {
  it('a nested map item gets a diagnostic with its line and a hint', () => {
    const r = parseSkillDeps(md('deps:\n  - pip: requests\n  - npm:zod\n'));
    expect(specs(r.declared)).toEqual(['npm:zod']);
    expect(r.diagnostics).toHaveLength(1);
    expect(r.diagnostics[0]).toMatchObject({ key: 'deps', line: 3 });
    expect(r.diagnostics[0].message).toContain('a mapping');
    expect(r.diagnostics[0].message).toContain('"pip:requests"');
  });

  it('an unknown prefix is rejected, naming the accepted prefixes', () => {
    const r = parseSkillDeps(md('deps:\n  - foo:bar\n  - brew:jq\n'));
    expect(r.declared).toEqual([]);
    expect(r.diagnostics.map((d) => d.line)).toEqual([3, 4]);
    expect(r.diagnostics[0].raw).toBe('foo:bar');
    expect(r.diagnostics[0].message).toContain('unknown prefix "foo:"');
    for (const p of ['pip:', 'npm:', 'system:', 'github:']) expect(r.diagnostics[0].message).toContain(p);
  });

  it.each([
    ['pip:foo;rm -rf /', "shell metacharacter ';'"],
    ['"rm -rf /"', 'whitespace'],
    ["'npm:a'');require('", "shell metacharacter '''"],
    ['"$(id)"', "shell metacharacter '$'"],
    ['-y', "starts with '-'"],
    ['"pip:foo;__import__(\'os\')"', "shell metacharacter ';'"],
    ['"pip:>=1.0"', 'needs a package name'],
    ['"pip:[binary]"', 'needs a package name'],
    ['npm:Foo', 'uppercase'],
    ['"npm:@scope/"', 'needs a package name after the scope'],
  ])('hostile or invalid entry %s → diagnostic', (item, message) => {
    const r = parseSkillDeps(md(`deps:\n  - pip:ok\n  - ${item}\n`));
    expect(specs(r.declared)).toEqual(['pip:ok']);
    expect(r.diagnostics).toHaveLength(1);
    expect(r.diagnostics[0].key).toBe('deps');
    expect(r.diagnostics[0].line).toBe(4);
    expect(r.diagnostics[0].message).toContain(message);
  });

  it('non-string items (number, null, nested list) are reported', () => {
    const r = parseSkillDeps(md('exclude_deps:\n  - 42\n  -\n  - [a, b]\n  - pip:ok\n'));
    expect(specs(r.excluded)).toEqual(['pip:ok']);
    expect(r.diagnostics.map((d) => [d.key, d.line])).toEqual([
      ['exclude_deps', 3],
      ['exclude_deps', 4],
      ['exclude_deps', 5],
    ]);
    expect(r.diagnostics[0].message).toContain('a number');
    expect(r.diagnostics[2].message).toContain('a nested list');
  });

  it('deps that is not a list is ignored (auto-scan decides) with a diagnostic', () => {
    const r = parseSkillDeps(md('name: x\ndeps: pip:requests\n'));
    expect(r.declared).toBeNull();
    expect(r.diagnostics[0]).toMatchObject({ key: 'deps', line: 3 });
    expect(r.diagnostics[0].message).toContain('must be a list');
    expect(r.diagnostics[0].message).toContain('deps: ["pip:requests"]');
    const map = parseSkillDeps(md('deps:\n  pip: requests\n'));
    expect(map.declared).toBeNull();
    expect(map.diagnostics[0].message).toContain('a mapping');
  });

  it('YAML syntax errors become frontmatter diagnostics with their line', () => {
    const r = parseSkillDeps(md('name: x\ndeps: [pip:psycopg[binary]]\n'));
    expect(r.declared).toBeNull();
    expect(r.diagnostics[0].key).toBe('frontmatter');
    expect(r.diagnostics[0].line).toBe(3);
    expect(r.diagnostics[0].message).toMatch(/^YAML syntax error/);
    const dup = parseSkillDeps(md('deps: [a]\ndeps: [b]\n'));
    expect(dup.declared).toBeNull();
    expect(dup.diagnostics[0].message).toContain('unique');
    expect(dup.diagnostics[0].line).toBe(3);
  });

  it('an unclosed front matter and a non-map front matter are reported', () => {
    expect(parseSkillDeps('---\nname: x\ndeps: [a]\n').diagnostics[0]).toMatchObject({ key: 'frontmatter', line: 1 });
    const list = parseSkillDeps('---\n- a\n- b\n---\n');
    expect(list.diagnostics[0]).toMatchObject({ key: 'frontmatter', line: 2 });
  });

  it('duplicates are reported and the first kept', () => {
    const r = parseSkillDeps(md('deps:\n  - pip:Requests\n  - pip:requests>=2\n'));
    expect(specs(r.declared)).toEqual(['pip:Requests']);
    expect(r.diagnostics[0].message).toContain('from line 3');
  });
});

describe('parseSkillDeps: #importName override', () => {
  it('keeps the import name apart from the spec', () => {
    const r = parseSkillDeps(md('deps:\n  - pip:beautifulsoup4#bs4\n  - pip:google-cloud-storage>=2#google.cloud.storage\n'));
    expect(r.diagnostics).toEqual([]);
    expect(r.declared!.map((e) => [formatSpec(e.spec), e.importName, e.raw])).toEqual([
      ['pip:beautifulsoup4', 'bs4', 'pip:beautifulsoup4#bs4'],
      ['pip:google-cloud-storage>=2', 'google.cloud.storage', 'pip:google-cloud-storage>=2#google.cloud.storage'],
    ]);
  });

  it('rejects an import name that is not a module path, and # on other managers', () => {
    const r = parseSkillDeps(md('deps:\n  - "pip:bs4#os;import sys"\n  - pip:x#1abc\n  - npm:zod#zod\n'));
    expect(r.declared).toEqual([]);
    expect(r.diagnostics.map((d) => d.line)).toEqual([3, 4, 5]);
    expect(r.diagnostics[0].message).toContain('Python module path');
    expect(r.diagnostics[2].message).toContain('only accepted on pip: entries');
  });
});

describe('splitFrontMatter', () => {
  it('stops at the first closing line and ignores later ---', () => {
    const fm = splitFrontMatter('---\na: 1\n---\nb\n---\n');
    expect(fm).toEqual({ yaml: 'a: 1\n', firstLine: 2 });
    expect(splitFrontMatter('text\n---\na: 1\n---\n')).toBeNull();
  });
});
