import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { termMatcher, termRanges, windowAround } from './highlight';
import { createSkillSearch, type SearchDoc } from './search';

const doc = (id: string, over: Partial<SearchDoc>): SearchDoc => ({
  id,
  name: id,
  description: '',
  body: '',
  source: 'workspace',
  status: 'ready',
  eligible: true,
  ...over,
});

function fixture() {
  const s = createSkillSearch();
  s.replaceAll([
    doc('weather', { name: 'weather', description: 'Get current weather and forecasts (no API key).', body: 'Use wttr.in with curl.' }),
    doc('notes', {
      name: 'apple-notes',
      description: 'Manage Apple Notes from the terminal.',
      body: 'Check the weather of your notes once a day. ' + 'filler '.repeat(60),
    }),
    doc('trello', {
      name: 'trello',
      description: 'Manage Trello boards.',
      body: 'Uses the Trello REST API with TRELLO_API_KEY.',
      source: 'managed',
      status: 'needs-setup',
      eligible: false,
    }),
    doc('pdf', { name: 'nano-pdf', description: 'Edit PDF files with natural language.', body: 'Run nano-pdf edit.', source: 'bundled' }),
  ]);
  return s;
}

describe('createSkillSearch', () => {
  it('ranks a name match above a body match', () => {
    const hits = fixture().search('weather');
    expect(hits.map((h) => h.id)).toEqual(['weather', 'notes']);
    expect(hits[0].score).toBeGreaterThan(hits[1].score);
  });

  it('matches prefixes', () => {
    const hits = fixture().search('weat');
    expect(hits[0].id).toBe('weather');
    expect(hits[0].terms).toContain('weather');
  });

  it('tolerates a typo in terms of four letters or more, not in shorter ones', () => {
    const s = fixture();
    expect(s.search('wether')[0]?.id).toBe('weather');
    expect(s.search('trelo')[0]?.id).toBe('trello');
    expect(s.search('pfd')).toEqual([]);
  });

  it('finds a word with two neighbouring letters swapped, as one edit', () => {
    const s = fixture();
    // "trlelo" is two Levenshtein edits from "trello": within reach only as a swap
    expect(s.search('trlelo')[0]?.id).toBe('trello');
    expect(s.search('trlelo')[0]?.terms).toEqual(['trello']);
    expect(s.search('waehter')).toEqual([]); // two swaps are two edits
  });

  it('takes the last term as a prefix from three characters on', () => {
    const s = fixture();
    expect(s.search('wea')[0]?.id).toBe('weather');
    expect(s.search('we')).toEqual([]);
  });

  it('runs the typo pass when the filters leave fewer hits than asked for', () => {
    const s = fixture();
    expect(s.search('wether', {}, 1).map((h) => h.id)).toEqual(['weather']);
    // unfiltered, "notes" alone would fill the one place asked for; filtered, only the typo pass finds trello
    expect(s.search('notes trelo', {}, 1).map((h) => h.id)).toEqual(['notes']);
    expect(s.search('notes trelo', { source: ['managed'] }, 1).map((h) => h.id)).toEqual(['trello']);
  });

  it('keeps the best hits by score, an earlier document first among equal scores', () => {
    const s = createSkillSearch();
    s.replaceAll(['c', 'a', 'b', 'd'].map((id) => doc(id, { name: `tool-${id}`, description: 'Shared words only.' })));
    s.replaceAll([...['c', 'a', 'b'].map((id) => doc(id, { name: `tool-${id}`, description: 'Shared words only.' })), doc('d', { name: 'shared' })]);
    expect(s.search('shared', {}, 3).map((h) => h.id)).toEqual(['d', 'c', 'a']);
    expect(s.search('shared', {}, 10).map((h) => h.id)).toEqual(['d', 'c', 'a', 'b']);
  });

  it('applies source, status and eligible filters', () => {
    const s = fixture();
    expect(
      s
        .search('manage')
        .map((h) => h.id)
        .sort(),
    ).toEqual(['notes', 'trello']);
    expect(s.search('manage', { source: ['managed'] }).map((h) => h.id)).toEqual(['trello']);
    expect(s.search('manage', { status: ['ready'] }).map((h) => h.id)).toEqual(['notes']);
    expect(s.search('manage', { eligible: false }).map((h) => h.id)).toEqual(['trello']);
    expect(s.search('manage', { source: ['bundled'] })).toEqual([]);
  });

  it('returns highlight ranges that cover exactly the matched terms', () => {
    const [hit] = fixture().search('trello api');
    expect(hit.id).toBe('trello');
    for (const h of hit.highlights) {
      expect(h.ranges.length).toBeGreaterThan(0);
      for (const [s, e] of h.ranges) expect(hit.terms).toContain(h.text.slice(s, e).toLowerCase());
    }
    expect(hit.highlights.map((h) => h.field)).toEqual(['name', 'description', 'body']);
    const body = hit.highlights.find((h) => h.field === 'body')!;
    expect(body.ranges.map(([s, e]) => body.text.slice(s, e))).toEqual(['Trello', 'API']);
    expect(hit.terms.sort()).toEqual(['api', 'trello']);
    // the last term is a prefix: "trel" also matches TRELLO_API_KEY, and the range covers the whole term
    const [prefixHit] = fixture().search('rest trel');
    const prefixBody = prefixHit.highlights.find((h) => h.field === 'body')!;
    expect(prefixBody.ranges.map(([s, e]) => prefixBody.text.slice(s, e))).toEqual(['Trello', 'REST', 'TRELLO_API_KEY']);
  });

  it('cuts the body to a window around the first match', () => {
    const s = createSkillSearch();
    const body = 'intro '.repeat(100) + 'the kubernetes cluster ' + 'outro '.repeat(100);
    s.replaceAll([doc('k8s', { body })]);
    const [hit] = s.search('kubernetes');
    const h = hit.highlights.find((x) => x.field === 'body')!;
    expect(h.text.length).toBeLessThanOrEqual(200);
    expect(h.text.startsWith('…')).toBe(true);
    expect(h.text.endsWith('…')).toBe(true);
    expect(h.ranges).toHaveLength(1);
    expect(h.text.slice(h.ranges[0][0], h.ranges[0][1])).toBe('kubernetes');
  });

  it('returns no hits for an empty or wordless query, and honours the limit', () => {
    const s = fixture();
    expect(s.search('')).toEqual([]);
    expect(s.search('   ')).toEqual([]);
    expect(s.search('--- !!')).toEqual([]);
    expect(s.search('manage', {}, 1)).toHaveLength(1);
  });

  it('replaceAll drops documents that are gone', () => {
    const s = fixture();
    s.replaceAll([doc('only', { name: 'only-one', description: 'weather station' })]);
    expect(s.size).toBe(1);
    expect(s.search('weather').map((h) => h.id)).toEqual(['only']);
  });

  it('indexes real published skills', () => {
    const root = path.resolve('test/fixtures/skills-real/openclaw');
    const docs = fs.readdirSync(root).map((name) => {
      const text = fs.readFileSync(path.join(root, name, 'SKILL.md'), 'utf8');
      return doc(name, { name, description: /description:\s*(.*)/.exec(text)?.[1] ?? '', body: text });
    });
    const s = createSkillSearch();
    s.replaceAll(docs);
    expect(s.search('tmux')[0].id).toBe('tmux');
    expect(s.search('whisper')[0].id).toBe('openai-whisper-api');
  });
});

describe('sync', () => {
  const corpus = () => [
    doc('a', { name: 'alpha', description: 'Creates weather reports.', body: 'Created daily; creating more.' }),
    doc('b', { name: 'beta', description: 'Manages creative notes.', body: 'A recreated body about weather.' }),
    doc('c', { name: 'gamma', description: 'Crawls feeds.', body: 'Nothing about the weather.' }),
  ];
  const QUERIES = ['weather', 'crea', 'craeting', 'notes', 'zeppelin', 'feeds crawl'];
  const answers = (s: ReturnType<typeof createSkillSearch>) => QUERIES.map((q) => s.search(q));

  it('after an add, a change and a removal answers every query as an index built from scratch', async () => {
    const live = createSkillSearch();
    const docs = corpus();
    await live.sync(docs);
    const changed = [
      docs[0],
      doc('b', { ...docs[1], body: 'Now about zeppelins and crepes.' }),
      doc('d', { name: 'delta', description: 'Creates zeppelin maps.' }),
    ];
    await live.sync(changed);
    const scratch = createSkillSearch();
    scratch.replaceAll(changed);
    expect(answers(live)).toEqual(answers(scratch));
    expect(live.size).toBe(3);
  });
});

describe('termRanges', () => {
  it('covers whole tokens only, ignoring case, next to non-ASCII letters too', () => {
    const m = termMatcher(new Set(['api', 'über']));
    const text = 'rapid API, api_key, Über-Ｘ, xüber, 𝒜api, api';
    expect(termRanges(text, m).map(([s, e]) => text.slice(s, e))).toEqual(['API', 'Über', 'api']);
    expect(termRanges(text, m).at(-1)).toEqual([text.length - 3, text.length]);
  });
});

describe('windowAround', () => {
  it('keeps short text whole and shifts ranges into a cut window', () => {
    expect(windowAround('short text', [[0, 5]])).toEqual({ text: 'short text', ranges: [[0, 5]] });
    const text = 'a'.repeat(300) + ' needle ' + 'b'.repeat(300);
    const w = windowAround(text, [[301, 307]], 100);
    expect(w.text.slice(w.ranges[0][0], w.ranges[0][1])).toBe('needle');
  });
});
