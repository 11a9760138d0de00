import type { SkillDiagnostic } from '../types';

/** A key path inside the frontmatter, e.g. ['metadata', 'openclaw', 'install', 0, 'formula']. */
export type KeyPath = readonly (string | number)[];

/** SKILL.md lines of the YAML nodes, by key path. Paths inside a JSON5 string resolve to the string's line. */
export interface LineIndex {
  /** Line of the value at `path`, else of the nearest ancestor that has one. */
  valueLine(path: KeyPath): number | undefined;
  /** Line of the key of `path` (falls back like valueLine). */
  keyLine(path: KeyPath): number | undefined;
}

export const NO_LINES: LineIndex = { valueLine: () => undefined, keyLine: () => undefined };

/** `metadata.openclaw.install[0].formula` */
export function showPath(path: KeyPath): string {
  return path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? p : `.${p}`)).join('');
}

/** Collects diagnostics of one SKILL.md, placing each at the line of the node it is about. */
export class Reporter {
  readonly diagnostics: SkillDiagnostic[] = [];

  constructor(
    readonly file: string,
    public lines: LineIndex = NO_LINES,
  ) {}

  error(code: string, at: KeyPath | number | undefined, message: string): void {
    this.add('error', code, at, message);
  }

  warn(code: string, at: KeyPath | number | undefined, message: string): void {
    this.add('warning', code, at, message);
  }

  /** Same as warn, but placed at the key's line (for "this key is not known"). */
  warnAtKey(code: string, path: KeyPath, message: string): void {
    this.add('warning', code, this.lines.keyLine(path), message);
  }

  private add(severity: SkillDiagnostic['severity'], code: string, at: KeyPath | number | undefined, message: string): void {
    const line = typeof at === 'number' ? at : at === undefined ? undefined : this.lines.valueLine(at);
    this.diagnostics.push({ file: this.file, ...(line !== undefined ? { line } : {}), code, severity, message });
  }
}

export function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** "a list", "a mapping", "the number 5", ... for messages. */
export function describeValue(v: unknown): string {
  if (v === null || v === undefined) return 'empty';
  if (Array.isArray(v)) return 'a list';
  if (typeof v === 'object') return 'a mapping';
  if (typeof v === 'string') return `the string "${v.length > 40 ? `${v.slice(0, 40)}…` : v}"`;
  return `the ${typeof v} ${String(v)}`;
}

/** A string value (trimmed); absent or empty YAML value → undefined; another type → error `key.type`. */
export function readString(r: Reporter, value: unknown, path: KeyPath): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') {
    r.error('key.type', path, `"${showPath(path)}" must be a string, but it is ${describeValue(value)}; quote it or fix the value`);
    return undefined;
  }
  return value.trim();
}

/** A boolean; the strings "true"/"false" are read with a warning; anything else is an error and gives `fallback`. */
export function readBool(r: Reporter, value: unknown, path: KeyPath, fallback: boolean): boolean {
  if (value === undefined || value === null) return fallback;
  if (typeof value === 'boolean') return value;
  if (typeof value === 'string' && /^(true|false)$/i.test(value.trim())) {
    const b = value.trim().toLowerCase() === 'true';
    r.warn('key.type', path, `"${showPath(path)}" is the string "${value}"; read as ${b}. Write ${b} without quotes`);
    return b;
  }
  r.error('key.type', path, `"${showPath(path)}" must be true or false, but it is ${describeValue(value)}; the default ${fallback} is used`);
  return fallback;
}

/**
 * A list of non-empty strings. A single string is split on commas (or whitespace when `separator` is
 * "space") with a warning; non-string items are errors and are left out. Duplicates are removed.
 */
export function readStringList(r: Reporter, value: unknown, path: KeyPath, separator: 'comma' | 'space' = 'comma'): string[] {
  if (value === undefined || value === null) return [];
  let items: unknown[];
  if (typeof value === 'string') {
    items = value.split(separator === 'comma' ? ',' : /\s+/);
    if (separator === 'comma') {
      const read = items.map((s) => String(s).trim()).filter(Boolean);
      r.warn(
        'key.type',
        path,
        `"${showPath(path)}" should be a list; the string was read as ${JSON.stringify(read)}. Write it as a list, e.g. ${JSON.stringify(read)}`,
      );
    }
  } else if (Array.isArray(value)) {
    items = value;
  } else {
    r.error('key.type', path, `"${showPath(path)}" must be a list of strings, but it is ${describeValue(value)}; it is ignored`);
    return [];
  }
  const out: string[] = [];
  items.forEach((item, i) => {
    if (typeof item !== 'string') {
      r.error('key.type', [...path, i], `item ${i + 1} of "${showPath(path)}" must be a string, but it is ${describeValue(item)}; it is left out`);
      return;
    }
    const s = item.trim();
    if (s && !out.includes(s)) out.push(s);
  });
  return out;
}

/** An absolute http(s) URL with no whitespace, or undefined. */
export function httpUrl(value: string): URL | undefined {
  if (!value || /\s/.test(value)) return undefined;
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : undefined;
  } catch {
    return undefined;
  }
}

/** Warns about keys of `obj` outside `known`, at their key lines. */
export function warnUnknownKeys(r: Reporter, obj: Record<string, unknown>, path: KeyPath, known: readonly string[], code: string, hint = ''): void {
  for (const key of Object.keys(obj)) {
    if (known.includes(key)) continue;
    const where = path.length ? `"${showPath(path)}"` : 'the frontmatter';
    r.warnAtKey(code, [...path, key], `unknown key "${key}" in ${where} is ignored${hint}; known keys: ${known.join(', ')}`);
  }
}
