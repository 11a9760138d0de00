/**
 * Full-text search over skills (BM25+, see bm25.ts): name weighs 3, description 2, body 1. The
 * last query term (the one being typed) also matches as a prefix from three characters on (a
 * shorter prefix stands for a large part of the vocabulary). Typo tolerance (one edit: a letter
 * added, dropped or replaced, or two neighbours swapped; terms of four characters or more) is a
 * second pass, run only when the first finds fewer hits than asked for. A query without any word
 * returns no hits (listing everything is the catalog's job).
 */
import type { SourceKind } from '../types';
import { Bm25Index, type QueryTerm } from './bm25';
import { type Highlight, termMatcher, termRanges, tokenize, windowAround } from './highlight';

export interface SearchDoc {
  id: string;
  name: string;
  description: string;
  body: string;
  source: SourceKind;
  status: string;
  eligible: boolean;
}

export interface SearchFilters {
  source?: SourceKind[];
  status?: string[];
  eligible?: boolean;
}

export interface SearchHit {
  id: string;
  name: string;
  score: number;
  /** Indexed terms that matched (after prefix/typo expansion), lower case. */
  terms: string[];
  highlights: Highlight[];
}

export interface SkillSearch {
  /** Replaces the whole index in one go. */
  replaceAll(docs: SearchDoc[]): void;
  /**
   * Brings the index to `docs` by document: new ids added, missing ones discarded, those whose text
   * changed re-indexed; a change of status or source only is not re-indexed. Queries run during a
   * sync see every document either before or after its change.
   */
  sync(docs: SearchDoc[]): Promise<void>;
  search(query: string, filters?: SearchFilters, limit?: number): SearchHit[];
  readonly size: number;
}

const FIELDS = ['name', 'description', 'body'] as const;
const BOOSTS = [3, 2, 1];
const MIN_PREFIX = 3;
const MIN_FUZZY = 4;
/** Index work between two turns of the event loop while syncing (a first load of thousands of skills is seconds of work). */
const SYNC_SLICE = 16;
const BODY_WINDOW = 160;
const DESCRIPTION_WINDOW = 240;

function newIndex(): Bm25Index {
  return new Bm25Index(FIELDS.length, BOOSTS, tokenize);
}

const textsOf = (d: SearchDoc) => FIELDS.map((f) => d[f]);

/** The query's distinct lower-case terms; the last one typed is also a prefix. */
function queryTerms(query: string, fuzzy: boolean): QueryTerm[] {
  const terms = [...new Set(tokenize(query).map((t) => t.toLowerCase()))];
  const last = tokenize(query).at(-1)?.toLowerCase();
  return terms.map((term) => ({
    term,
    prefix: term === last && term.length >= MIN_PREFIX,
    fuzzy: fuzzy && term.length >= MIN_FUZZY ? 1 : 0,
  }));
}

function matches(doc: SearchDoc, f: SearchFilters): boolean {
  if (f.source && !f.source.includes(doc.source)) return false;
  if (f.status && !f.status.includes(doc.status)) return false;
  if (f.eligible !== undefined && doc.eligible !== f.eligible) return false;
  return true;
}

function highlightsOf(doc: SearchDoc, fields: ReadonlySet<string>, terms: RegExp | null): Highlight[] {
  const out: Highlight[] = [];
  for (const field of FIELDS) {
    if (!fields.has(field)) continue;
    const text = doc[field];
    const size = field === 'body' ? BODY_WINDOW : DESCRIPTION_WINDOW;
    // windowAround keeps only ranges within `size` (plus up to 20 characters to a space) of the first.
    const ranges = termRanges(text, terms, field === 'name' ? undefined : size + 40);
    if (ranges.length === 0) continue;
    if (field === 'name') out.push({ field, text, ranges });
    else out.push({ field, ...windowAround(text, ranges, size) });
  }
  return out;
}

export function createSkillSearch(): SkillSearch {
  let index = newIndex();
  let docs = new Map<string, SearchDoc>();

  return {
    get size() {
      return docs.size;
    },
    replaceAll(list: SearchDoc[]) {
      const next = newIndex();
      const byId = new Map<string, SearchDoc>();
      for (const d of list) byId.set(d.id, d); // a repeated id keeps the last document
      for (const d of byId.values()) next.add(d.id, textsOf(d));
      index = next;
      docs = byId;
    },
    async sync(list: SearchDoc[]) {
      const next = new Map<string, SearchDoc>();
      for (const d of list) next.set(d.id, d);
      let work = 0;
      const step = async () => {
        if (++work % SYNC_SLICE === 0) await new Promise<void>((resolve) => setImmediate(resolve));
      };
      for (const [id, old] of [...docs]) {
        if (next.has(id)) continue;
        index.remove(id, textsOf(old));
        docs.delete(id);
        await step();
      }
      for (const [id, d] of next) {
        const old = docs.get(id);
        if (old === d) continue;
        if (old && FIELDS.every((f) => old[f] === d[f])) {
          docs.set(id, d);
          continue;
        }
        if (old) index.remove(id, textsOf(old));
        index.add(id, textsOf(d));
        docs.set(id, d);
        await step();
      }
    },
    search(query: string, filters: SearchFilters = {}, limit = 20): SearchHit[] {
      if (tokenize(query).length === 0 || limit <= 0) return [];
      const hasFilters = filters.source !== undefined || filters.status !== undefined || filters.eligible !== undefined;
      const accept = hasFilters ? (id: string) => matches(docs.get(id)!, filters) : undefined;
      let found = index.search(queryTerms(query, false), limit, accept);
      if (found.count < limit) found = index.search(queryTerms(query, true), limit, accept);
      const hits = found.hits;
      // One matcher for every hit: a term of another hit that occurs as a token in a matched field
      // would have matched this hit too, so the ranges are the same as with each hit's own terms.
      const matcher = termMatcher(new Set(hits.flatMap((r) => r.terms)));
      return hits.map((r) => {
        const doc = docs.get(r.id)!;
        const fields = new Set([...r.match.values()].flatMap((s) => [...s].map((f) => FIELDS[f])));
        return { id: doc.id, name: doc.name, score: r.score, terms: r.terms, highlights: highlightsOf(doc, fields, matcher) };
      });
    },
  };
}
