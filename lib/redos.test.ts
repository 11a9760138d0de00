// Every regex literal of lib/ (and every `new RegExp('…')` / `RegExp('…')` with a literal pattern)
// is checked for catastrophic backtracking with recheck, so a vulnerable pattern cannot land.
// Patterns built at run time from parts are not seen here: keep their parts bounded and literal.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { checkSync, type Diagnostics } from 'recheck';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const LIB = path.resolve(__dirname);

/**
 * Patterns the check flagged (polynomial) or could not decide within its time limit on a loaded
 * machine, not fixed yet: each is still bounded by the scanner's per-skill time budget. Fix one,
 * then remove it here; the test fails on any other unsafe pattern.
 */
const KNOWN: { file: string; source: string; flags: string; result: string }[] = JSON.parse(fs.readFileSync(path.join(LIB, 'redos-known.json'), 'utf8'));
const NOT_SHIPPED = /\.(test|fixtures)\.ts$|[/\\]testutil\.ts$/;

export interface FoundRegex {
  file: string;
  line: number;
  source: string;
  flags: string;
}

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...sourceFiles(p));
    else if (/\.tsx?$/.test(e.name) && !e.name.endsWith('.d.ts') && !NOT_SHIPPED.test(p)) out.push(p);
  }
  return out;
}

const literalText = (n: ts.Node | undefined): string | null => (n && (ts.isStringLiteral(n) || ts.isNoSubstitutionTemplateLiteral(n)) ? n.text : null);

/** `String.raw\`…\`` without substitutions: the raw text is the pattern as written. */
function rawTemplate(n: ts.Node | undefined, sf: ts.SourceFile): string | null {
  if (!n || !ts.isTaggedTemplateExpression(n) || !ts.isNoSubstitutionTemplateLiteral(n.template)) return null;
  if (n.tag.getText(sf) !== 'String.raw') return null;
  return n.template.getText(sf).slice(1, -1);
}

/** Regex literals and RegExp constructions with a literal pattern, found with the TypeScript parser. */
export function findRegexes(file: string, text = fs.readFileSync(file, 'utf8')): FoundRegex[] {
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const found: FoundRegex[] = [];
  const add = (node: ts.Node, source: string, flags: string) =>
    found.push({ file: path.relative(path.dirname(LIB), file), line: sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1, source, flags });
  const visit = (node: ts.Node) => {
    if (node.kind === ts.SyntaxKind.RegularExpressionLiteral) {
      const t = node.getText(sf);
      const end = t.lastIndexOf('/');
      add(node, t.slice(1, end), t.slice(end + 1));
    } else if ((ts.isNewExpression(node) || ts.isCallExpression(node)) && ts.isIdentifier(node.expression) && node.expression.text === 'RegExp') {
      const [p, f] = node.arguments ?? [];
      const source = literalText(p) ?? rawTemplate(p, sf);
      if (source !== null) add(node, source, literalText(f) ?? '');
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return found;
}

/**
 * What the automaton checker is given, from one pattern: each top-level alternative on its own
 * (a match attempt tries them one after another, so the cost is their sum), with
 *  - assertions (word boundaries, lookarounds) the automaton cannot model replaced: one that leads
 *    an alternative only decides whether an attempt starts, so it goes; anywhere else it may end a
 *    path, so it becomes `(?:|\uFFFF)` (pass, or need a character that is not there); each
 *    lookaround's body is checked as a pattern of its own;
 *  - bounded repeats `{m,n}` shrunk to at most 3: a bounded repeat costs a constant per position,
 *    while any unbounded quantifier it overlaps with still overlaps at 3 — and the automaton of
 *    `[^\n]{0,300}` is too large to build in reasonable time.
 * Patterns with back-references stay as written (the automaton cannot model them; the fuzz checker
 * takes them).
 */
export function analysisParts(source: string): string[] {
  if (/\\[1-9]|\\k</.test(source)) return [source];
  const bodies: string[] = [];
  const top: string[] = [''];
  const stack: { kind: 'group' | 'look'; text: string; leading: boolean }[] = [];
  let leading = true;
  const put = (s: string) => {
    if (stack.length) stack[stack.length - 1].text += s;
    else top[top.length - 1] += s;
  };
  const emit = (s: string) => {
    leading = false;
    put(s);
  };
  const assertion = () => {
    if (!leading) put(String.raw`(?:|\uFFFF)`);
  };
  let i = 0;
  while (i < source.length) {
    const c = source[i];
    if (c === '\\') {
      const n = source[i + 1];
      if (n === 'b' || n === 'B') {
        assertion();
        i += 2;
        continue;
      }
      let end = i + 2;
      if ((n === 'p' || n === 'P' || n === 'u') && source[end] === '{') end = source.indexOf('}', end) + 1;
      emit(source.slice(i, end));
      i = end;
    } else if (c === '[') {
      let j = i + 1;
      if (source[j] === '^') j++;
      if (source[j] === ']') j++;
      while (j < source.length && source[j] !== ']') j += source[j] === '\\' ? 2 : 1;
      emit(source.slice(i, j + 1));
      i = j + 1;
    } else if (c === '(') {
      const look = /^\(\?(?:<?[=!])/.exec(source.slice(i, i + 4));
      if (look) {
        stack.push({ kind: 'look', text: '', leading });
        i += look[0].length;
      } else {
        const open = /^\((?:\?:|\?<[A-Za-z_$][\w$]*>)?/.exec(source.slice(i, i + 40))![0];
        stack.push({ kind: 'group', text: open, leading });
        i += open.length;
      }
    } else if (c === ')') {
      const g = stack.pop()!;
      i++;
      if (g.kind === 'look') {
        bodies.push(g.text);
        // A quantifier on a lookaround repeats nothing: drop it with the lookaround.
        const q = /^(?:[*+?]|\{\d+(?:,\d*)?\})\??/.exec(source.slice(i));
        if (q) i += q[0].length;
        leading = g.leading;
        assertion();
      } else emit(`${g.text})`);
    } else if (c === '{' && /^\{\d+(?:,\d*)?\}/.test(source.slice(i))) {
      const q = /^\{(\d+)(,(\d*))?\}/.exec(source.slice(i))!;
      const min = Math.min(Number(q[1]), 2);
      const max = q[2] === undefined ? null : q[3] === '' ? '' : Math.max(min, Math.min(Number(q[3]), 3));
      emit(max === null ? `{${Math.min(Number(q[1]), 3)}}` : `{${min},${max}}`);
      i += q[0].length;
    } else if (c === '|' && stack.length === 0) {
      top.push('');
      leading = true;
      i++;
    } else if (c === '|') {
      put(c);
      leading = stack[stack.length - 1].leading;
      i++;
    } else if (c === '^' && leading) {
      put(c);
      i++;
    } else {
      emit(c);
      i++;
    }
  }
  return [...top, ...bodies.flatMap((b) => analysisParts(b).map((p) => `^(?:${p})`))].filter((p) => p !== '' && p !== '^(?:)');
}

const TIMEOUT = 10_000;
const RECHECK_VERSION: string = JSON.parse(fs.readFileSync(path.join(LIB, '../node_modules/recheck/package.json'), 'utf8')).version;

/**
 * Parts found safe before, keyed by the part's text, its flags and the recheck version (nothing
 * else goes in: a changed pattern is a new key). The automaton takes seconds on some parts of the
 * scanner's rules; this keeps later runs fast. Kept outside the repository (and outside
 * node_modules, which `npm ci` empties), so a machine checks each pattern once.
 */
const CACHE_FILE = path.join(process.env.SKILLDOCK_TEST_CACHE_DIR || path.join(os.homedir(), '.cache', 'skilldock'), 'redos', 'safe.json');
const safeParts: Set<string> = new Set(fs.existsSync(CACHE_FILE) ? JSON.parse(fs.readFileSync(CACHE_FILE, 'utf8')) : []);
const partKey = (part: string, flags: string) => createHash('sha256').update(`${RECHECK_VERSION}\0${flags}\0${part}`).digest('hex');

function saveCache(): void {
  fs.mkdirSync(path.dirname(CACHE_FILE), { recursive: true });
  fs.writeFileSync(CACHE_FILE, JSON.stringify([...safeParts]));
}

/** The automaton checker (exact) on each analysis part; the default hybrid checker for what it cannot model or finish. */
function check(source: string, flags: string, useCache = true): Diagnostics | { status: 'safe' } {
  for (const part of analysisParts(source)) {
    const key = partKey(part, flags);
    if (useCache && safeParts.has(key)) continue;
    let d = checkSync(part, flags, { checker: 'automaton', timeout: TIMEOUT });
    if (d.status === 'unknown') d = checkSync(part, flags, { timeout: TIMEOUT });
    if (d.status !== 'safe') return d;
    safeParts.add(key);
  }
  return { status: 'safe' };
}

function describeResult(d: Diagnostics | { status: 'safe' }): string {
  if (d.status === 'vulnerable') return `${d.complexity.type}${d.attack ? `, attack ${JSON.stringify(d.attack.pattern)}` : ''}`;
  if (d.status === 'unknown') return `unknown: ${d.error.kind}`;
  return d.status;
}

describe('ReDoS check over lib/', () => {
  it('finds literals, new RegExp and String.raw patterns (and nothing in strings or comments)', () => {
    const text = [
      'const a = /x+y/gi; // /not-this/',
      "const b = new RegExp('(a|b)*c', 'm');",
      'const c = RegExp(String.raw`\\d+\\.\\d+`);',
      "const d = new RegExp(dynamic + 'x');",
      "const e = '/not-a-regex/';",
    ].join('\n');
    expect(findRegexes(path.join(LIB, 'x.ts'), text).map((r) => [r.line, r.source, r.flags])).toEqual([
      [1, 'x+y', 'gi'],
      [2, '(a|b)*c', 'm'],
      [3, '\\d+\\.\\d+', ''],
    ]);
  });

  it('splits alternatives, drops assertions into parts of their own and shrinks bounded repeats', () => {
    expect(analysisParts(String.raw`(?<![\w.])\bab{0,300}?c\b|x(?:y|(?<!-)z)+(?!\s*=)`)).toEqual([
      String.raw`ab{0,3}?c(?:|\uFFFF)`,
      String.raw`x(?:y|(?:|\uFFFF)z)+(?:|\uFFFF)`,
      String.raw`^(?:[\w.])`,
      '^(?:-)',
      String.raw`^(?:\s*=)`,
    ]);
    expect(analysisParts(String.raw`\p{L}{4}[a-z]{2,}(?<n>\d{1,2})`)).toEqual([String.raw`\p{L}{3}[a-z]{2,}(?<n>\d{1,2})`]);
    expect(analysisParts(String.raw`(a)\1`)).toEqual([String.raw`(a)\1`]);
  });

  it('tells vulnerable patterns from safe ones, through every path of the check', () => {
    for (const [source, flags] of [
      ['^(a+)+$', ''],
      [String.raw`^(\s*,?)*\s*x`, ''],
      [String.raw`\s+as\s+`, ''],
      [String.raw`(?<![\w$])eval\s*\(?\s*\$`, 'g'],
      [String.raw`\bfoo[^\n]{0,300}?\s*\s+x`, 'i'],
      [String.raw`(\w+)\s*\1\s*$`, ''],
      [String.raw`ok|([\w$]+|\))\s*\.\s*(exec|spawn)\s*\(`, 'g'],
    ] as const) {
      expect(check(source, flags, false).status, source).toBe('vulnerable');
    }
    expect(check('^[a-z]{1,20}$', '', false).status).toBe('safe');
    expect(check(String.raw`(?<![\w$.])eval\s*\(`, 'g', false).status).toBe('safe');
  });

  it('every regex in lib/ is safe (but the listed ones still to fix)', () => {
    const all = sourceFiles(LIB).flatMap((f) => findRegexes(f));
    expect(all.length).toBeGreaterThan(100);
    const known = new Map(KNOWN.map((k) => [`${k.file}\0${k.flags}\0${k.source}`, k]));
    const seen = new Set<string>();
    let unsafe: string[];
    try {
      unsafe = all.flatMap((r) => {
        const key = `${r.file}\0${r.flags}\0${r.source}`;
        if (known.has(key)) {
          seen.add(key);
          return [];
        }
        const d = check(r.source, r.flags);
        return d.status === 'safe' ? [] : [`${r.file}:${r.line} /${r.source}/${r.flags} — ${describeResult(d)}`];
      });
    } finally {
      saveCache();
    }
    expect(unsafe, `regexes with catastrophic backtracking:\n${unsafe.join('\n')}`).toEqual([]);
    // A fixed or removed pattern leaves the list, so the list only shrinks.
    expect([...known.keys()].filter((k) => !seen.has(k)).map((k) => k.replaceAll('\0', ' '))).toEqual([]);
  }, 1_800_000);
});
