/**
 * The inverted index behind skill search: minisearch's radix tree (SearchableMap) for the
 * vocabulary, prefix and fuzzy term lookup, and BM25+ scoring done here over dense arrays indexed
 * by a small per-document slot. minisearch's own search builds a result object per matching
 * document and sorts them all; a four-letter prefix or a typo over 5,000 skills touches thousands
 * of documents, so here scores accumulate in typed arrays and only the best `limit` are kept.
 * Scoring follows minisearch's (BM25+ with k 1.2, b 0.7, d 0.5, field length = distinct terms,
 * prefix weight 0.375 and fuzzy weight 0.45 scaled by distance, the sum multiplied by how many query
 * terms matched); ties keep the order in which documents were first matched.
 */
import SearchableMap from 'minisearch/SearchableMap';

const K = 1.2;
const B = 0.7;
const D = 0.5;
const PREFIX_WEIGHT = 0.375;
const FUZZY_WEIGHT = 0.45;

/** Per field: slot → term frequency, in insertion order. */
type TermData = (Map<number, number> | undefined)[];

export interface QueryTerm {
  term: string;
  prefix: boolean;
  /** Largest edit distance for typo matches (Levenshtein, plus one swap of neighbours as one edit); 0 for none. */
  fuzzy: number;
}

export interface Scored {
  id: string;
  score: number;
  /** Indexed terms that matched, in the order they were first matched. */
  terms: string[];
  /** Fields each matched term was found in. */
  match: Map<string, Set<number>>;
}

interface Expansion {
  query: number;
  term: string;
  weight: number;
  data: TermData;
}

export class Bm25Index {
  private readonly vocab = new SearchableMap<TermData>();
  private readonly slotOf = new Map<string, number>();
  private ids: (string | undefined)[] = [];
  private readonly free: number[] = [];
  private readonly lengths: number[][];
  private readonly totals: number[];
  private score = new Float64Array(0);
  private stamp = new Uint32Array(0);
  private lastQuery = new Int32Array(0);
  private quality = new Uint16Array(0);
  /** Slots matched by the current query, in the order of their first match. */
  private touched = new Int32Array(0);
  private round = 0;

  constructor(
    private readonly fieldCount: number,
    private readonly boosts: readonly number[],
    private readonly tokenize: (text: string) => string[],
  ) {
    this.lengths = Array.from({ length: fieldCount }, () => []);
    this.totals = new Array(fieldCount).fill(0);
  }

  get size(): number {
    return this.slotOf.size;
  }

  has(id: string): boolean {
    return this.slotOf.has(id);
  }

  add(id: string, fields: readonly string[]): void {
    if (this.slotOf.has(id)) throw new Error(`duplicate search document ${id}`);
    const slot = this.free.pop() ?? this.ids.length;
    this.ids[slot] = id;
    this.slotOf.set(id, slot);
    for (let f = 0; f < this.fieldCount; f++) {
      const { freqs, length } = this.termFreqs(fields[f]);
      this.lengths[f][slot] = length;
      this.totals[f] += length;
      for (const [term, tf] of freqs) {
        let data = this.vocab.get(term);
        if (!data) this.vocab.set(term, (data = new Array(this.fieldCount)));
        let postings = data[f];
        if (!postings) data[f] = postings = new Map();
        postings.set(slot, tf);
      }
    }
  }

  /** `fields`: the texts the document was added with. */
  remove(id: string, fields: readonly string[]): void {
    const slot = this.slotOf.get(id);
    if (slot === undefined) return;
    for (let f = 0; f < this.fieldCount; f++) {
      this.totals[f] -= this.lengths[f][slot];
      this.lengths[f][slot] = 0;
      for (const term of this.termFreqs(fields[f]).freqs.keys()) {
        const data = this.vocab.get(term);
        const postings = data?.[f];
        if (!data || !postings) continue;
        postings.delete(slot);
        if (postings.size > 0) continue;
        data[f] = undefined;
        if (data.every((p) => p === undefined)) this.vocab.delete(term);
      }
    }
    this.slotOf.delete(id);
    this.ids[slot] = undefined;
    this.free.push(slot);
  }

  /** Lower-case term frequencies, and the field's length as minisearch counts it (distinct tokens as written). */
  private termFreqs(text: string): { freqs: Map<string, number>; length: number } {
    const tokens = this.tokenize(text);
    const freqs = new Map<string, number>();
    for (const token of tokens) {
      const term = token.toLowerCase();
      freqs.set(term, (freqs.get(term) ?? 0) + 1);
    }
    return { freqs, length: new Set(tokens).size };
  }

  /** Every indexed term a query term stands for, with its weight: exact, then prefix, then typo matches. */
  private expand(terms: readonly QueryTerm[]): Expansion[] {
    const out: Expansion[] = [];
    terms.forEach((q, query) => {
      const exact = this.vocab.get(q.term);
      if (exact) out.push({ query, term: q.term, weight: 1, data: exact });
      const prefixed = new Set<string>();
      if (q.prefix) {
        for (const [term, data] of this.vocab.atPrefix(q.term)) {
          const distance = term.length - q.term.length;
          if (!distance) continue;
          prefixed.add(term);
          out.push({ query, term, weight: (PREFIX_WEIGHT * term.length) / (term.length + 0.3 * distance), data });
        }
      }
      if (q.fuzzy > 0) {
        const fuzzy = this.vocab.fuzzyGet(q.term, q.fuzzy);
        const typo = (term: string, data: TermData, distance: number) => {
          if (distance && !prefixed.has(term)) out.push({ query, term, weight: (FUZZY_WEIGHT * term.length) / (term.length + distance), data });
        };
        for (const [term, [data, distance]] of fuzzy) typo(term, data, distance);
        // Two neighbours swapped, the commonest typo, is one edit here (two for Levenshtein): exact lookups, no walk.
        for (let i = 0; i + 1 < q.term.length; i++) {
          const swapped = q.term.slice(0, i) + q.term[i + 1] + q.term[i] + q.term.slice(i + 2);
          if (swapped === q.term || fuzzy.has(swapped)) continue;
          const data = this.vocab.get(swapped);
          if (data) typo(swapped, data, 1);
        }
      }
    });
    return out;
  }

  private ensureCapacity(): void {
    const n = this.ids.length;
    if (this.score.length >= n) return;
    const cap = Math.max(64, n * 2);
    this.score = new Float64Array(cap);
    this.stamp = new Uint32Array(cap);
    this.lastQuery = new Int32Array(cap);
    this.quality = new Uint16Array(cap);
    this.touched = new Int32Array(cap);
    this.round = 0;
  }

  /**
   * The best `limit` documents for `terms` (OR; distinct terms: a repeated one is the caller's to merge), best first, among those `accept` lets through;
   * `count` is how many documents matched and were accepted.
   */
  search(terms: readonly QueryTerm[], limit: number, accept?: (id: string) => boolean): { hits: Scored[]; count: number } {
    const expansions = this.expand(terms);
    this.ensureCapacity();
    if (++this.round === 0xffffffff) {
      this.stamp.fill(0);
      this.round = 1;
    }
    const { score, stamp, lastQuery, quality, round, touched } = this;
    let count = 0;
    const n = this.slotOf.size;
    for (const e of expansions) {
      for (let f = 0; f < this.fieldCount; f++) {
        const postings = e.data[f];
        if (!postings) continue;
        const df = postings.size;
        const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
        const avg = this.totals[f] / n;
        const lengths = this.lengths[f];
        const w = e.weight * this.boosts[f] * idf;
        const query = e.query;
        // forEach, not for…of: no [slot, tf] array per posting, so no garbage collection mid-query.
        postings.forEach((tf, slot) => {
          const s = w * (D + (tf * (K + 1)) / (tf + K * (1 - B + (B * lengths[slot]) / avg)));
          if (stamp[slot] !== round) {
            stamp[slot] = round;
            score[slot] = s;
            lastQuery[slot] = query;
            quality[slot] = 1;
            touched[count++] = slot;
          } else {
            score[slot] += s;
            if (lastQuery[slot] !== query) {
              lastQuery[slot] = query;
              quality[slot]++;
            }
          }
        });
      }
    }
    // The best `limit` by score, an earlier first match winning ties (insertion into a short sorted list).
    const best: { slot: number; score: number }[] = [];
    let accepted = 0;
    for (let i = 0; i < count; i++) {
      const slot = touched[i];
      if (accept && !accept(this.ids[slot]!)) continue;
      accepted++;
      const s = score[slot] * quality[slot];
      if (best.length === limit && s <= best[limit - 1].score) continue;
      let at = best.length;
      while (at > 0 && best[at - 1].score < s) at--;
      best.splice(at, 0, { slot, score: s });
      if (best.length > limit) best.pop();
    }
    return { hits: best.map(({ slot, score }) => this.describe(slot, score, expansions)), count: accepted };
  }

  private describe(slot: number, score: number, expansions: Expansion[]): Scored {
    const match = new Map<string, Set<number>>();
    for (const e of expansions) {
      for (let f = 0; f < this.fieldCount; f++) {
        if (!e.data[f]?.has(slot)) continue;
        let fields = match.get(e.term);
        if (!fields) match.set(e.term, (fields = new Set()));
        fields.add(f);
      }
    }
    return { id: this.ids[slot]!, score, terms: [...match.keys()], match };
  }
}
