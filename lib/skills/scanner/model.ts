/**
 * The scanner's working units. A file becomes one or more segments (a script, a Markdown file and
 * each of its fenced blocks, a decoded payload); rules match regexes over `segment.code` and report
 * offsets, which the sink turns into file lines and excerpts.
 */
import type { FindingSeverity, ScanFinding } from '../types';
import { type Near, nearMatches } from './near';
import { codeHits, hasAny, rawHits } from './prefilter';
import { anchoredMatches, isAnchored, type TextHits, triggerPassEnabled } from './triggers';

export type Lang = 'markdown' | 'shell' | 'python' | 'js' | 'powershell' | 'ruby' | 'perl' | 'text' | 'decoded';

/** Where a segment's text comes from; decides severity downgrades and which rules apply. */
export type SegmentContext = 'script' | 'markdown' | 'markdown-block' | 'text' | 'decoded';

export interface Segment {
  file: string;
  lang: Lang;
  context: SegmentContext;
  /** The text as written. */
  raw: string;
  /** Same length as `raw`: comments blanked with spaces, shell line continuations joined. */
  code: string;
  /** `code` lower-cased, for the old path of the keyword pre-checks (prefilter.ts). */
  lower?: string;
  /** Keyword pre-check results and the trigram bitmap of `lower` (see prefilter.ts), filled as rules ask. */
  keywordCache?: Map<string, boolean>;
  grams?: Uint8Array;
  /** The trigger pass over `code`, and over `raw` when it differs (see triggers.ts), made on first use. */
  codeHits?: TextHits;
  rawHits?: TextHits;
  /** 1-based line in the file of the segment's first line. */
  firstLine: number;
  /** Offsets where each line of `raw` starts. */
  lineStarts: number[];
  /**
   * The raw twin of a comment-stripped script: its hits that the stripped text lacks sit in
   * comments (or in code a confused lexer blanked), so they are reported one severity lower.
   */
  inComment?: boolean;
  /** A fenced block whose `code` is its Markdown file's `code` from `start` on: its trigger pass is cut from the file's. */
  within?: { parent: Segment; start: number };
  /** For decoded payloads (all of one segment's, joined by blank lines): each part's origin, and the nesting depth. */
  decoded?: { depth: number; parts: DecodedPart[] };
}

/** One decoded literal inside a decoded segment: where its text sits and which file line held it. */
export interface DecodedPart {
  start: number;
  end: number;
  line: number;
  encoding: 'base64' | 'hex';
}

export function partAt(seg: Segment, offset: number): DecodedPart {
  const parts = seg.decoded!.parts;
  let lo = 0;
  let hi = parts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (parts[mid].start <= offset) lo = mid;
    else hi = mid - 1;
  }
  return parts[lo];
}

function lineStartsOf(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return starts;
}

/** 0-based line index of `offset` inside the segment. */
export function lineIndexAt(seg: Segment, offset: number): number {
  const s = seg.lineStarts;
  let lo = 0;
  let hi = s.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (s[mid] <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** The file line (1-based) of `offset` in the segment. */
export function fileLineAt(seg: Segment, offset: number): number {
  return seg.decoded ? partAt(seg, offset).line : seg.firstLine + lineIndexAt(seg, offset);
}

// process-wide: a constant table, never written
const SHELLISH: ReadonlySet<Lang> = new Set(['shell', 'markdown', 'text', 'decoded']);

/** Blank `\`-newline continuations so one shell command spans one regex match; length kept. */
function joinContinuations(code: string): string {
  return code.replace(/\\(\r?\n)/g, (m) => ' '.repeat(m.length));
}

export function makeSegment(init: Omit<Segment, 'lineStarts' | 'code' | 'lower'> & { code?: string }): Segment {
  const given = init.code ?? init.raw;
  const code = SHELLISH.has(init.lang) ? joinContinuations(given) : given;
  return { ...init, code, lineStarts: lineStartsOf(init.raw) };
}

const MAX_EXCERPT = 200;

function clip(text: string, around: number): string {
  if (text.length <= MAX_EXCERPT) return text;
  const start = Math.max(0, Math.min(text.length - MAX_EXCERPT, around - MAX_EXCERPT / 2));
  return text.slice(start, start + MAX_EXCERPT);
}

/** The trimmed line holding `offset` (a 200-char window around the match on long lines). */
export function excerptAt(seg: Segment, offset: number): string {
  if (seg.decoded) {
    const part = partAt(seg, offset);
    return clip(seg.raw.slice(part.start, part.end).replace(/\s+/g, ' ').trim(), 0);
  }
  const i = lineIndexAt(seg, offset);
  const start = seg.lineStarts[i];
  const end = i + 1 < seg.lineStarts.length ? seg.lineStarts[i + 1] - 1 : seg.raw.length;
  const line = seg.raw.slice(start, end);
  const lead = line.length - line.trimStart().length;
  return clip(line.trim(), offset - start - lead);
}

/** Rules whose hits in Markdown are documentation examples, not code that runs on install. */
// process-wide: a constant table, never written
const DOC_DOWNGRADED = new Set(['dangerous-exec', 'dynamic-code-execution']);

/**
 * Where a finding points, worked out from a segment and an offset: what the sink needs once the
 * segment itself is gone (a file's scan kept for reuse holds spots, not segments).
 */
export interface Spot {
  file: string;
  line: number;
  excerpt: string;
  context: SegmentContext;
  encoding?: DecodedPart['encoding'];
  inComment?: boolean;
}

export function spotAt(seg: Segment, offset: number): Spot {
  const spot: Spot = { file: seg.file, line: fileLineAt(seg, offset), excerpt: excerptAt(seg, offset), context: seg.context };
  if (seg.decoded) spot.encoding = partAt(seg, offset).encoding;
  if (seg.inComment) spot.inComment = true;
  return spot;
}

/** A rule's severity and message where it was found: lower in Markdown examples and comments, the payload named. */
function placed(rule: string, severity: FindingSeverity, message: string, where: Omit<Spot, 'file' | 'line' | 'excerpt'>): [FindingSeverity, string] {
  let sev = severity;
  let msg = message;
  if (DOC_DOWNGRADED.has(rule) && sev === 'critical' && (where.context === 'markdown' || where.context === 'markdown-block')) {
    sev = 'warn';
    msg += ' (in a Markdown example)';
  }
  if (where.encoding) msg += ` (inside a ${where.encoding} payload)`;
  if (where.inComment) {
    sev = sev === 'critical' ? 'warn' : 'info';
    msg += ' (in a comment)';
  }
  return [sev, msg];
}

/** Collects findings, one per (rule, file, line), keeping the most severe. */
export class FindingSink {
  private readonly byKey = new Map<string, ScanFinding>();

  add(seg: Segment, rule: string, severity: FindingSeverity, offset: number, message: string): void {
    const encoding = seg.decoded ? partAt(seg, offset).encoding : undefined;
    const [sev, msg] = placed(rule, severity, message, { context: seg.context, encoding, inComment: seg.inComment });
    const line = fileLineAt(seg, offset);
    // The excerpt only for a finding that is kept: most hits repeat one already held.
    if (!this.improves(rule, seg.file, line, sev)) return;
    this.push({ rule, severity: sev, file: seg.file, line, message: msg, excerpt: excerptAt(seg, offset) });
  }

  addAt(spot: Spot, rule: string, severity: FindingSeverity, message: string): void {
    const [sev, msg] = placed(rule, severity, message, spot);
    this.push({ rule, severity: sev, file: spot.file, line: spot.line, message: msg, excerpt: spot.excerpt });
  }

  /** False when a finding at least this severe is already held for (rule, file, line). */
  private improves(rule: string, file: string, line: number, severity: FindingSeverity): boolean {
    const prev = this.byKey.get(`${rule}\u0000${file}\u0000${line}`);
    return !prev || SEVERITY_RANK[severity] > SEVERITY_RANK[prev.severity];
  }

  push(f: ScanFinding): void {
    if (this.improves(f.rule, f.file, f.line, f.severity)) this.byKey.set(`${f.rule}\u0000${f.file}\u0000${f.line}`, f);
  }

  findings(): ScanFinding[] {
    return [...this.byKey.values()].sort(
      (a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0) || a.line - b.line || (a.rule < b.rule ? -1 : a.rule > b.rule ? 1 : 0),
    );
  }
}

const SEVERITY_RANK: Record<FindingSeverity, number> = { info: 0, warn: 1, critical: 2 };

/** Every match of a global regex over the segment's code. */
export function* matches(re: RegExp, text: string): Generator<RegExpExecArray> {
  re.lastIndex = 0;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    yield m;
    if (m[0].length === 0) re.lastIndex++;
  }
}

/**
 * A regex (or a head-then-tail pair), its finding message, and keywords one of which must occur for
 * it to be worth running. Repeats of whitespace and name characters in the rules are bounded (a run
 * of more than 100 is not followed): each match attempt then costs at most a constant, which the
 * ReDoS check in lib/redos.test.ts can prove.
 */
export type Pattern = [RegExp | Near, string, (readonly string[])?];

/**
 * Every match of a global regex over the segment's `code` or `raw`: from the trigger pass when the
 * regex is anchored (triggers.ts), else by a scan of the whole text.
 */
export function segMatches(seg: Segment, re: RegExp, text: string = seg.code): Iterable<RegExpExecArray> {
  if (!triggerPassEnabled() || !isAnchored(re)) return matches(re, text);
  const hits = text === seg.code ? codeHits(seg) : text === seg.raw ? rawHits(seg) : null;
  return hits ? anchoredMatches(re, text, hits) : matches(re, text);
}

/** Offset of the first match of a global regex over the segment's code, or -1. */
export function segFirstIndex(seg: Segment, re: RegExp | Near): number {
  if (!(re instanceof RegExp) || !isAnchored(re)) return firstIndex(re, seg.code);
  for (const m of segMatches(seg, re)) return m.index;
  return -1;
}

/** Start offsets of every match of a pattern's regex or head-then-tail pair. */
export function* matchStarts(re: RegExp | Near, text: string): Generator<number> {
  if (re instanceof RegExp) for (const m of matches(re, text)) yield m.index;
  else for (const m of nearMatches(text, re)) yield m.index;
}

/** Adds one finding per match of each pattern. */
export function flagAll(sink: FindingSink, seg: Segment, rule: string, severity: FindingSeverity, patterns: readonly Pattern[]): void {
  for (const [re, message, keywords] of patterns) {
    if (!hasAny(seg, keywords)) continue;
    if (!(re instanceof RegExp)) {
      for (const m of nearMatches(seg.code, re)) sink.add(seg, rule, severity, m.index, message);
      continue;
    }
    for (const m of segMatches(seg, re)) sink.add(seg, rule, severity, m.index, message);
  }
}

/** Offset of the first match, or -1. */
export function firstIndex(re: RegExp | Near, text: string): number {
  if (!(re instanceof RegExp)) {
    for (const at of matchStarts(re, text)) return at;
    return -1;
  }
  re.lastIndex = 0;
  const m = re.exec(text);
  re.lastIndex = 0;
  return m ? m.index : -1;
}

export const isShellish = (seg: Segment): boolean => SHELLISH.has(seg.lang);
export const isPython = (seg: Segment): boolean => seg.lang === 'python' || seg.lang === 'decoded';
export const isJs = (seg: Segment): boolean => seg.lang === 'js' || seg.lang === 'decoded';
