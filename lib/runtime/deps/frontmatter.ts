import { type Document, isAlias, isMap, isScalar, isSeq, LineCounter, type Node, parseDocument } from 'yaml';
import { formatSpec, parsePackageSpec, specLockKey } from '../spec';
import { PY_IMPORT_PATH } from './aliases';
import type { DepDiagnostic, DepEntry, ParsedSkillDeps } from './types';

/** At most this many items per key; more is certainly a mistake. */
export const MAX_DEP_ENTRIES = 200;

/** SKILL.md front matter: the text between a leading `---` line and the next `---` (or `...`) line. */
export interface FrontMatter {
  /** The YAML text, line endings normalised to LF. */
  yaml: string;
  /** 1-based SKILL.md line of the YAML's first line. */
  firstLine: number;
}

/** Splits SKILL.md (BOM and CRLF tolerated). null when there is no front matter; throws nothing. */
export function splitFrontMatter(skillMd: string): FrontMatter | { error: string } | null {
  const text = skillMd.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
  const lines = text.split('\n');
  if (!/^---[ \t]*$/.test(lines[0] ?? '')) return null;
  for (let i = 1; i < lines.length; i++) {
    if (/^(---|\.\.\.)[ \t]*$/.test(lines[i])) return { yaml: lines.slice(1, i).join('\n') + '\n', firstLine: 2 };
  }
  return { error: 'the front matter starts with "---" on line 1 but has no closing "---" line' };
}

function describe(node: unknown): string {
  if (isMap(node)) return 'a mapping';
  if (isSeq(node)) return 'a nested list';
  if (isScalar(node)) return node.value === null ? 'empty' : `a ${typeof node.value}`;
  return 'not a string';
}

/**
 * Reads `deps:` and `exclude_deps:` from SKILL.md front matter (
 * S05). Block and flow lists are accepted; every rejected item yields a diagnostic with its line.
 * `declared` is null when the `deps` key is absent or unusable (then the auto-scan decides).
 */
export function parseSkillDeps(skillMd: string): ParsedSkillDeps {
  const diagnostics: DepDiagnostic[] = [];
  const none = (): ParsedSkillDeps => ({ declared: null, excluded: [], diagnostics });
  const fm = splitFrontMatter(skillMd);
  if (fm === null) return none();
  if ('error' in fm) {
    diagnostics.push({ key: 'frontmatter', line: 1, message: fm.error });
    return none();
  }
  const lineCounter = new LineCounter();
  const doc = parseDocument(fm.yaml, { lineCounter, uniqueKeys: true });
  const lineOf = (offset: number | undefined) => (offset === undefined ? undefined : lineCounter.linePos(offset).line + fm.firstLine - 1);
  if (doc.errors.length) {
    for (const err of doc.errors) {
      diagnostics.push({
        key: 'frontmatter',
        line: err.linePos ? err.linePos[0].line + fm.firstLine - 1 : lineOf(err.pos[0]),
        message: `YAML syntax error: ${err.message.split('\n')[0].replace(/ at line \d+, column \d+:?$/, '')}`,
      });
    }
    return none();
  }
  if (doc.contents !== null && !isMap(doc.contents)) {
    diagnostics.push({ key: 'frontmatter', line: lineOf(doc.contents.range?.[0]), message: 'the front matter must be a mapping of keys to values' });
    return none();
  }
  const declared = readList(doc, 'deps', lineOf, diagnostics);
  const excluded = readList(doc, 'exclude_deps', lineOf, diagnostics) ?? [];
  return { declared, excluded, diagnostics };
}

function readList(
  doc: Document,
  key: 'deps' | 'exclude_deps',
  lineOf: (offset: number | undefined) => number | undefined,
  diagnostics: DepDiagnostic[],
): DepEntry[] | null {
  if (!isMap(doc.contents)) return null;
  const pair = doc.contents.items.find((p) => isScalar(p.key) && p.key.value === key);
  if (!pair) return null;
  const keyLine = lineOf((pair.key as Node).range?.[0]);
  let value = pair.value as Node | null;
  if (isAlias(value)) value = (value.resolve(doc) as Node | undefined) ?? null;
  if (value === null || (isScalar(value) && value.value === null)) {
    diagnostics.push({
      key,
      line: keyLine,
      message: `"${key}:" has no items; it counts as an empty list. Write "${key}: []" to say so, or remove the key${key === 'deps' ? ' to use the auto-scan' : ''}`,
    });
    return [];
  }
  if (!isSeq(value)) {
    const hint = isScalar(value) && typeof value.value === 'string' ? `; write a list, e.g. ${key}: ["${String(value.value).slice(0, 60)}"]` : '';
    diagnostics.push({
      key,
      line: keyLine,
      message: `"${key}:" must be a list of package specs, but it is ${describe(value)}${hint}; ${key === 'deps' ? 'it is ignored and the auto-scan is used' : 'it is ignored'}`,
    });
    return null;
  }
  const entries: DepEntry[] = [];
  const seen = new Map<string, number>();
  value.items.forEach((raw, index) => {
    let item = raw as Node | null;
    const line = lineOf(item?.range?.[0]) ?? keyLine;
    if (isAlias(item)) item = (item.resolve(doc) as Node | undefined) ?? null;
    if (index >= MAX_DEP_ENTRIES) {
      if (index === MAX_DEP_ENTRIES) diagnostics.push({ key, line, message: `"${key}:" lists more than ${MAX_DEP_ENTRIES} items; the rest are ignored` });
      return;
    }
    if (!isScalar(item) || typeof item.value !== 'string') {
      let message = `item ${index + 1} of "${key}:" is ${describe(item)}; each item must be one package spec string such as "pip:requests"`;
      if (isMap(item) && item.items.length === 1 && isScalar(item.items[0].key) && isScalar(item.items[0].value)) {
        const k = String(item.items[0].key.value);
        message += ` (did you mean "${k}:${String(item.items[0].value.value)}" with no space after the colon?)`;
      }
      diagnostics.push({ key, line, message, raw: isScalar(item) ? String(item.value) : undefined });
      return;
    }
    const text = item.value.trim();
    const entry = parseEntry(text, line, key, diagnostics);
    if (!entry) return;
    const dedupe = specLockKey(entry.spec);
    const first = seen.get(dedupe);
    if (first !== undefined) {
      diagnostics.push({
        key,
        line,
        raw: text,
        message: `"${text}" repeats ${formatSpec(entries[first].spec)} from line ${entries[first].line}; the first one is used`,
      });
      return;
    }
    seen.set(dedupe, entries.length);
    entries.push(entry);
  });
  return entries;
}

/** One item: the spec grammar, plus an optional `#importName` suffix on pip entries. */
function parseEntry(text: string, line: number | undefined, key: 'deps' | 'exclude_deps', diagnostics: DepDiagnostic[]): DepEntry | null {
  let specText = text;
  let importName: string | undefined;
  const hash = text.indexOf('#');
  if (text.startsWith('pip:') && hash !== -1) {
    specText = text.slice(0, hash);
    importName = text.slice(hash + 1);
    if (!PY_IMPORT_PATH.test(importName)) {
      diagnostics.push({
        key,
        line,
        raw: text,
        message: `"${text.slice(0, 80)}": the import name after '#' must be a Python module path such as bs4 or google.cloud.storage`,
      });
      return null;
    }
  }
  try {
    const spec = parsePackageSpec(specText, { context: 'deps' });
    return { raw: text, spec, line: line ?? 1, ...(importName ? { importName } : {}) };
  } catch (e) {
    let message = (e as Error).message;
    if (hash !== -1 && !text.startsWith('pip:')) message += ' (an "#import_name" suffix is only accepted on pip: entries)';
    diagnostics.push({ key, line, raw: text, message });
    return null;
  }
}
