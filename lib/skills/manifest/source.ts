import { type Document, isMap, isScalar, isSeq, LineCounter, type Node, parseDocument } from 'yaml';
import { trimEndChar } from '../../core/text';
import { splitFrontMatter } from '../../runtime/deps/frontmatter';
import { isPlainObject, type KeyPath, type LineIndex, type Reporter } from './report';

/** SKILL.md split into its parsed frontmatter and its body. */
export interface SkillSource {
  /** The frontmatter mapping as plain data; null when there is none usable (a diagnostic says why). */
  data: Record<string, unknown> | null;
  lines: LineIndex;
  body: string;
  bodyLine: number;
}

/** Bounds alias expansion ("billion laughs") when converting YAML to plain data. */
const MAX_ALIAS_COUNT = 100;

/**
 * Splits SKILL.md (BOM and CRLF tolerated) and parses the frontmatter as YAML 1.2. Every problem is
 * reported on `r` with its SKILL.md line; never throws.
 */
export function readSkillSource(text: string, r: Reporter): SkillSource {
  const normalized = text.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
  const wholeBody = (): SkillSource => ({ data: null, lines: r.lines, body: normalized, bodyLine: 1 });
  const fm = splitFrontMatter(text);
  if (fm === null) {
    r.error('frontmatter.missing', 1, 'SKILL.md must start with a "---" line, then the YAML frontmatter (name, description, …), then a closing "---" line');
    return wholeBody();
  }
  if ('error' in fm) {
    r.error('frontmatter.unclosed', 1, `${fm.error}; add a "---" line after the last frontmatter key`);
    return wholeBody();
  }
  const all = normalized.split('\n');
  // splitFrontMatter returns "\n" both for an empty frontmatter and for one blank line.
  const yamlLineCount = fm.yaml === '\n' && /^(---|\.\.\.)[ \t]*$/.test(all[1] ?? '') ? 0 : fm.yaml.split('\n').length - 1;
  const closingIndex = fm.firstLine - 1 + yamlLineCount;
  const body = all.slice(closingIndex + 1).join('\n');
  const bodyLine = closingIndex + 2;

  let parsed = parseYaml(fm.yaml, fm.firstLine);
  if (parsed.doc.errors.length) {
    const repaired = repairColonValues(fm.yaml);
    const retry = repaired.lines.length ? parseYaml(repaired.yaml, fm.firstLine) : null;
    if (!retry || retry.doc.errors.length) {
      for (const err of parsed.doc.errors) {
        const line = err.linePos ? err.linePos[0].line + fm.firstLine - 1 : parsed.lineOf(err.pos[0]);
        const hint = err.code === 'BLOCK_AS_IMPLICIT_KEY' ? '. Put values that contain ": " in quotes' : '';
        r.error('frontmatter.yaml', line, `YAML syntax error: ${headline(err.message)}${hint}`);
      }
      return { data: null, lines: parsed.index, body, bodyLine };
    }
    parsed = retry;
    for (const { line, key } of repaired.lines) {
      const message = `the value of "${key}" contains ": " and is not valid YAML unquoted; it was read as one string. Put it in quotes`;
      r.warn('frontmatter.colon-in-value', line + fm.firstLine - 1, message);
    }
  }
  r.lines = parsed.index;
  for (const w of parsed.doc.warnings) {
    r.warn('frontmatter.yaml-warning', w.linePos ? w.linePos[0].line + fm.firstLine - 1 : undefined, `YAML: ${headline(w.message)}`);
  }
  const contents = parsed.doc.contents;
  if (contents === null || (isScalar(contents) && contents.value === null)) {
    r.error('frontmatter.empty', fm.firstLine, 'the frontmatter is empty; it needs at least "name:" and "description:"');
    return { data: null, lines: parsed.index, body, bodyLine };
  }
  if (!isMap(contents)) {
    r.error('frontmatter.not-mapping', parsed.lineOf(contents.range?.[0]), 'the frontmatter must be a mapping of keys to values (key: value lines)');
    return { data: null, lines: parsed.index, body, bodyLine };
  }
  let data: unknown;
  try {
    data = parsed.doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
  } catch (e) {
    r.error('frontmatter.yaml', fm.firstLine, `the frontmatter could not be read: ${(e as Error).message}`);
    return { data: null, lines: parsed.index, body, bodyLine };
  }
  return { data: isPlainObject(data) ? data : null, lines: parsed.index, body, bodyLine };
}

const headline = (message: string) => message.split('\n')[0].replace(/ at line \d+, column \d+:?$/, '');

function parseYaml(yaml: string, firstLine: number) {
  const lineCounter = new LineCounter();
  const doc = parseDocument(yaml, { lineCounter, uniqueKeys: true, prettyErrors: true });
  const lineOf = (offset: number | undefined) => (offset === undefined ? undefined : lineCounter.linePos(offset).line + firstLine - 1);
  return { doc, lineOf, index: buildLineIndex(doc, lineOf) };
}

function buildLineIndex(doc: Document, lineOf: (offset: number | undefined) => number | undefined): LineIndex {
  const values = new Map<string, number>();
  const keys = new Map<string, number>();
  const id = (path: KeyPath) => JSON.stringify(path);
  const walk = (node: unknown, path: KeyPath, depth: number) => {
    if (depth > 64) return;
    if (isMap(node)) {
      for (const pair of node.items) {
        if (!isScalar(pair.key)) continue;
        const p = [...path, String(pair.key.value)];
        const keyLine = lineOf(pair.key.range?.[0]);
        if (keyLine !== undefined) keys.set(id(p), keyLine);
        const valueLine = lineOf((pair.value as Node | null)?.range?.[0]) ?? keyLine;
        if (valueLine !== undefined) values.set(id(p), valueLine);
        walk(pair.value, p, depth + 1);
      }
    } else if (isSeq(node)) {
      node.items.forEach((item, i) => {
        const line = lineOf((item as Node | null)?.range?.[0]);
        if (line !== undefined) values.set(id([...path, i]), line);
        walk(item, [...path, i], depth + 1);
      });
    }
  };
  walk(doc.contents, [], 0);
  const find = (map: Map<string, number>, path: KeyPath) => {
    for (let n = path.length; n > 0; n--) {
      const hit = map.get(id(path.slice(0, n))) ?? (map === keys ? undefined : keys.get(id(path.slice(0, n))));
      if (hit !== undefined) return hit;
    }
    return undefined;
  };
  return { valueLine: (path) => find(values, path), keyLine: (path) => find(keys, path) ?? find(values, path) };
}

/**
 * OpenClaw skills often carry top-level plain values with ": " inside (`description: Use when: …`),
 * which YAML rejects. Peers drop such skills silently; we quote those lines and retry, with a warning.
 */
function repairColonValues(yaml: string): { yaml: string; lines: { line: number; key: string }[] } {
  const repaired: { line: number; key: string }[] = [];
  const out = yaml.split('\n').map((text, i) => {
    const m = /^([A-Za-z_][A-Za-z0-9_-]*):[ \t]+([^ \t].*)$/.exec(text);
    if (!m) return text;
    const key = m[1];
    const value = trimEndChar(m[2], ' \t');
    if (!/:([ \t]|$)/.test(value) || /^["'{[|>&*!%@`#]/.test(value) || /[ \t]#/.test(value)) return text;
    repaired.push({ line: i + 1, key });
    return `${key}: ${JSON.stringify(value)}`;
  });
  return { yaml: out.join('\n'), lines: repaired };
}
