import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { formatSpec } from '../spec';
import { parseSkillDeps } from './frontmatter';
import { readSkillFiles } from './read';
import { scanSkillFiles } from './scan';
import { pythonStdlibModules } from './stdlib';

// Published skills (OpenClaw, Anthropic), byte-for-byte: copied with their licences into test/fixtures/skills-real (see its README.md).
const ROOT = path.resolve(__dirname, '../../../test/fixtures/skills-real');
const skillDirs = ['anthropic', 'openclaw'].flatMap((src) =>
  fs
    .readdirSync(path.join(ROOT, src), { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => path.join(ROOT, src, e.name)),
);
const read = (rel: string) => fs.readFileSync(path.join(ROOT, rel), 'utf8');
/** The bodies of the fenced code blocks of a language in a Markdown file. */
const fences = (md: string, lang: string) => [...md.matchAll(/^```(\w+)\n([\s\S]*?)^```/gm)].filter((m) => m[1] === lang).map((m) => m[2]);

describe('real published skills', () => {
  let stdlib: ReadonlySet<string>;
  beforeAll(async () => {
    stdlib = await pythonStdlibModules();
  });

  it('all 35 SKILL.md front matters parse without deps and without diagnostics', () => {
    expect(skillDirs).toHaveLength(35);
    for (const dir of skillDirs) {
      const r = parseSkillDeps(fs.readFileSync(path.join(dir, 'SKILL.md'), 'utf8'));
      expect({ dir: path.basename(dir), ...r }).toEqual({ dir: path.basename(dir), declared: null, excluded: [], diagnostics: [] });
    }
  });

  it('deps added to a real front matter (flow mapping with trailing commas) are read with their lines', () => {
    const original = read('openclaw/trello/SKILL.md');
    const withDeps = original.replace('name: trello\n', 'name: trello\ndeps: [system:curl, system:jq]\nexclude_deps:\n  - jq\n');
    const r = parseSkillDeps(withDeps);
    expect(r.diagnostics).toEqual([]);
    expect(r.declared!.map((e) => [formatSpec(e.spec), e.line])).toEqual([
      ['system:curl', 3],
      ['system:jq', 3],
    ]);
    expect(r.excluded.map((e) => [e.raw, e.line])).toEqual([['jq', 5]]);
    // The same skill with CRLF line endings gives the same result.
    expect(parseSkillDeps(withDeps.replace(/\n/g, '\r\n'))).toEqual(r);
  });

  it('the skill folders hold no script files; folder names count as local modules', async () => {
    for (const dir of skillDirs) {
      const r = await readSkillFiles(dir);
      expect({ dir: path.basename(dir), files: r.files, diagnostics: r.diagnostics }).toEqual({ dir: path.basename(dir), files: [], diagnostics: [] });
    }
    const mcp = await readSkillFiles(path.join(ROOT, 'anthropic/mcp-builder'));
    expect(mcp.localModules).toEqual(['reference']);
    const api = await readSkillFiles(path.join(ROOT, 'anthropic/claude-api'));
    expect(api.localModules).toEqual(expect.arrayContaining(['python', 'typescript', 'shared', 'curl']));
  });

  it('mcp-builder Python examples: mcp, pydantic, httpx (stdlib skipped), python3 from the shebang', () => {
    const blocks = fences(read('anthropic/mcp-builder/reference/python_mcp_server.md'), 'python');
    expect(blocks).toHaveLength(18);
    const r = scanSkillFiles(
      blocks.map((content, i) => ({ path: `block${i}.py`, content })),
      { pythonStdlib: stdlib },
    );
    expect(r.diagnostics).toEqual([]);
    expect(r.deps.map((d) => [formatSpec(d.spec), d.where.length])).toEqual([
      ['pip:mcp', 4],
      ['pip:pydantic', 5],
      ['pip:httpx', 2],
      ['system:python3', 1],
    ]);
    expect(r.deps[0]).toMatchObject({ importName: 'mcp', file: 'block0.py', line: 1 });
  });

  it('mcp-builder TypeScript examples: scoped SDK from subpaths, express, zod, axios, node from the shebang', () => {
    const blocks = fences(read('anthropic/mcp-builder/reference/node_mcp_server.md'), 'typescript');
    const r = scanSkillFiles(blocks.map((content, i) => ({ path: `block${i}.ts`, content })));
    expect(r.diagnostics).toEqual([]);
    expect(r.deps.map((d) => [formatSpec(d.spec), d.where.length]).sort()).toEqual([
      ['npm:@modelcontextprotocol/sdk', 9],
      ['npm:axios', 2],
      ['npm:express', 2],
      ['npm:zod', 4],
      ['system:node', 1],
    ]);
  });

  it('webapp-testing example: playwright', () => {
    const blocks = fences(read('anthropic/webapp-testing/SKILL.md'), 'python');
    const r = scanSkillFiles(
      blocks.map((content, i) => ({ path: `block${i}.py`, content })),
      { pythonStdlib: stdlib },
    );
    expect(r.deps.map((d) => formatSpec(d.spec))).toEqual(['pip:playwright']);
  });
});
