// Every docs page is on the Help list, every link between docs pages (and from the README into docs/)
// reaches a page and a heading that exist, and Help reads nothing that is not on the list.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { HELP_INDEX, HELP_PAGES, headingSlugger, helpLink, helpPage } from './pages';
import { readHelpPage } from './read';

const ROOT = path.resolve(__dirname, '../..');
const DOCS = path.join(ROOT, 'docs');
const docFiles = fs.readdirSync(DOCS).filter((f) => f.endsWith('.md'));

/** The text outside fenced code blocks and inline code, where a link is a link. */
function prose(md: string): string {
  return md.replace(/^```[\s\S]*?^```/gm, '').replace(/`[^`\n]*`/g, '');
}

function links(md: string): string[] {
  return [...prose(md).matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!);
}

/** The anchors GitHub and the Help renderer give the page's headings. */
function anchors(md: string): Set<string> {
  const slug = headingSlugger();
  const heads = md
    .replace(/^```[\s\S]*?^```/gm, '')
    .split('\n')
    .filter((l) => /^#{1,6} /.test(l))
    .map((l) =>
      l
        .replace(/^#+ /, '')
        .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
        .replace(/[`*_]/g, ''),
    );
  return new Set(heads.map(slug));
}

const read = (file: string) => fs.readFileSync(file, 'utf8');

/** Why a link from a docs page (or, with `prefix` "docs/", from the README) does not land, or null. */
function broken(href: string, from: string, prefix = ''): string | null {
  if (/^(https?:|mailto:)/.test(href)) return null;
  if (href.startsWith('#')) return anchors(read(from)).has(href.slice(1)) ? null : `no heading for ${href}`;
  if (!href.startsWith(prefix)) return null;
  const m = /^([a-z0-9-]+)\.md(?:#(.+))?$/.exec(href.slice(prefix.length).replace(/^\.\//, ''));
  if (!m) return 'not a docs page (Help can only open docs/<page>.md)';
  const target = path.join(DOCS, `${m[1]}.md`);
  if (!fs.existsSync(target)) return `no page ${m[1]}.md`;
  if (m[2] && !anchors(read(target)).has(m[2])) return `no heading #${m[2]} in ${m[1]}.md`;
  return null;
}

describe('docs/', () => {
  it('holds exactly the pages on the Help list', () => {
    expect(docFiles.map((f) => f.replace(/\.md$/, '')).sort()).toEqual(HELP_PAGES.map((p) => p.name).sort());
    expect(helpPage(HELP_INDEX)).toBeDefined();
  });

  it('links only to pages and headings that exist', () => {
    const bad: string[] = [];
    let count = 0;
    for (const f of docFiles) {
      for (const href of links(read(path.join(DOCS, f)))) {
        count++;
        const why = broken(href, path.join(DOCS, f));
        if (why) bad.push(`${f}: ${href}: ${why}`);
      }
    }
    expect(bad).toEqual([]);
    expect(count).toBeGreaterThan(HELP_PAGES.length);
  });

  it('is reached from the README by links that resolve', () => {
    const readme = read(path.join(ROOT, 'README.md'));
    const toDocs = links(readme).filter((h) => h.startsWith('docs/'));
    expect(toDocs.length).toBeGreaterThan(5);
    const bad = toDocs.map((h) => [h, broken(h, path.join(ROOT, 'README.md'), 'docs/')]).filter(([, why]) => why);
    expect(bad).toEqual([]);
    // Other relative links of the README name files that exist.
    const other = links(readme).filter((h) => !/^(https?:|mailto:|#|docs\/)/.test(h));
    expect(other.filter((h) => !fs.existsSync(path.join(ROOT, h.split('#')[0]!)))).toEqual([]);
  });
});

describe('Help', () => {
  it('reads every listed page and nothing else', () => {
    for (const p of HELP_PAGES) expect(readHelpPage(p.name, ROOT)).toMatch(/^# /);
    for (const name of ['../README', 'README', 'index.md', '..', '', 'configuration/../index', '%2e%2e%2fREADME', 'constructor', 'toString']) {
      expect(readHelpPage(name, ROOT)).toBeUndefined();
    }
  });

  it('rewrites links between pages to /help and leaves other links alone', () => {
    expect(helpLink('configuration.md')).toBe('/help/configuration');
    expect(helpLink('./operations.md#security-model')).toBe('/help/operations#security-model');
    expect(helpLink('index.md')).toBe('/help');
    expect(helpLink('no-such-page.md')).toBe('no-such-page.md');
    expect(helpLink('https://example.com/x.md')).toBe('https://example.com/x.md');
    expect(helpLink('#roles')).toBe('#roles');
  });

  it('gives headings the anchors GitHub gives them', () => {
    const slug = headingSlugger();
    expect(slug('Isolation: one principal per sandbox')).toBe('isolation-one-principal-per-sandbox');
    expect(slug("Where a new capability's files go")).toBe('where-a-new-capabilitys-files-go');
    expect(slug('Requests, errors and jobs')).toBe('requests-errors-and-jobs');
    expect(slug('Requests, errors and jobs')).toBe('requests-errors-and-jobs-1');
  });
});
