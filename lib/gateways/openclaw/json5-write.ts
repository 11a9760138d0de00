// Writes new JSON5 values in the style of the file they go into: its line ends, its indent step and
// whether its multi-line objects end with a comma.
import { AppError } from '../../core/errors';

export interface WriteStyle {
  nl: string;
  /** One indent step, e.g. two spaces or a tab. */
  unit: string;
  trailingComma: boolean;
}

/** Arrays of scalars whose one-line form is at most this long are written on one line. */
const INLINE_ARRAY_MAX = 72;

export function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * True for an ASCII identifier, written unquoted as a key. Non-ASCII identifiers are valid JSON5
 * too, but json5's Unicode tables are older than the engine's, so those keys are quoted.
 */
export function isIdentifierKey(key: string): boolean {
  if (key.length === 0) return false;
  for (let i = 0; i < key.length; i++) {
    const c = key.charCodeAt(i);
    const letter = (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 36 || c === 95;
    if (!letter && !(i > 0 && c >= 48 && c <= 57)) return false;
  }
  return true;
}

export function writeString(s: string): string {
  // JSON.stringify leaves U+2028/U+2029 raw; json5 warns on them in strings.
  return JSON.stringify(s).replaceAll('\u2028', '\\u2028').replaceAll('\u2029', '\\u2029');
}

export function writeKey(key: string): string {
  return isIdentifierKey(key) ? key : writeString(key);
}

function writeScalar(v: unknown): string | null {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'boolean') return String(v);
  if (typeof v === 'string') return writeString(v);
  if (typeof v === 'number') {
    if (Number.isNaN(v)) return 'NaN';
    if (Object.is(v, -0)) return '-0';
    return String(v);
  }
  if (Array.isArray(v) && v.length === 0) return '[]';
  if (isPlainObject(v) && Object.keys(v).length === 0) return '{}';
  if (typeof v === 'object') return null;
  throw new AppError('validation', `A ${typeof v} cannot be written into a JSON5 config.`);
}

/**
 * `v` as JSON5 text for a place whose line is indented by `indent`; `inline` writes it on one line
 * (for a place inside a one-line object). Undefined members are left out.
 */
export function writeValue(v: unknown, indent: string, style: WriteStyle, inline = false, depth = 0): string {
  if (depth > 64) throw new AppError('validation', 'The value nests deeper than 64 levels.');
  const scalar = writeScalar(v);
  if (scalar !== null) return scalar;
  const inner = indent + style.unit;
  const close = style.trailingComma ? ',' : '';
  if (Array.isArray(v)) {
    const parts = v.map((x) => writeScalar(x));
    if (inline) return `[${v.map((x) => writeValue(x, inner, style, true, depth + 1)).join(', ')}]`;
    if (parts.every((p) => p !== null)) {
      const line = `[${parts.join(', ')}]`;
      if (line.length <= INLINE_ARRAY_MAX) return line;
    }
    const items = v.map((x) => inner + writeValue(x, inner, style, false, depth + 1));
    return `[${style.nl}${items.join(`,${style.nl}`)}${close}${style.nl}${indent}]`;
  }
  const entries = Object.entries(v as Record<string, unknown>).filter(([, x]) => x !== undefined);
  if (entries.length === 0) return '{}';
  if (inline) return `{ ${entries.map(([k, x]) => `${writeKey(k)}: ${writeValue(x, inner, style, true, depth + 1)}`).join(', ')} }`;
  const lines = entries.map(([k, x]) => `${inner}${writeKey(k)}: ${writeValue(x, inner, style, false, depth + 1)}`);
  return `{${style.nl}${lines.join(`,${style.nl}`)}${close}${style.nl}${indent}}`;
}
