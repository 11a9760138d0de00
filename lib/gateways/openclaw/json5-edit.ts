// Reads and edits an OpenClaw config (JSON5) the way a person would: a merge patch changes only
// the values it names, and comments, key order, quoting and spacing everywhere else stay as they were.
import { diffLines as lineDiff } from 'diff';
import JSON5 from 'json5';
import { AppError } from '../../core/errors';
import { Json5Editor } from './json5-editor';
import { checkJson5Depth, MAX_JSON5_DEPTH, type ScannedJson5, scanJson5 } from './json5-scan';
import { isPlainObject } from './json5-write';

export const MAX_JSON5_BYTES = 8 * 1024 * 1024;

export interface Json5Located {
  value: unknown;
  /** Where every value, key and comma sits. */
  scan: ScannedJson5;
}

function syntaxError(e: unknown): AppError {
  const err = e as SyntaxError & { lineNumber?: number; columnNumber?: number };
  const line = err.lineNumber ?? 1;
  const column = err.columnNumber ?? 1;
  let reason = String(err.message ?? e);
  if (reason.startsWith('JSON5: ')) reason = reason.slice(7);
  const at = ` at ${line}:${column}`;
  if (reason.endsWith(at)) reason = reason.slice(0, -at.length);
  // The line itself is not quoted: a config holds keys and env values, and this message reaches job logs.
  return new AppError('invalid_json', `The config is not valid JSON5: ${reason} at line ${line}, column ${column}.`, {
    details: { line, column },
    cause: e,
  });
}

/** Parses a JSON5 text of at most 8 MiB nesting at most 64 levels; a syntax error names its line and column. */
export function parseJson5Located(text: string): Json5Located {
  if (text.length > MAX_JSON5_BYTES || Buffer.byteLength(text, 'utf8') > MAX_JSON5_BYTES) {
    throw new AppError('payload_too_large', `The config is over ${MAX_JSON5_BYTES / 1024 / 1024} MiB.`);
  }
  checkJson5Depth(text);
  let value: unknown;
  try {
    value = JSON5.parse(text);
  } catch (e) {
    throw syntaxError(e);
  }
  return { value, scan: scanJson5(text) };
}

function setOwn(o: Record<string, unknown>, key: string, value: unknown): void {
  // A plain assignment to `__proto__` would change the prototype instead of adding a key.
  Object.defineProperty(o, key, { value, writable: true, enumerable: true, configurable: true });
}

/**
 * A JSON merge patch applied to a value: objects merge key by key, `null` deletes a key, anything
 * else (arrays included) replaces; a patch object meeting a non-object replaces it. Keys whose patch
 * value is undefined are left alone. Neither argument is changed.
 */
export function mergePatch(target: unknown, patch: unknown): unknown {
  if (!isPlainObject(patch)) return patch;
  const out: Record<string, unknown> = {};
  if (isPlainObject(target)) for (const k of Object.keys(target)) setOwn(out, k, target[k]);
  for (const k of Object.keys(patch)) {
    const p = patch[k];
    if (p === undefined) continue;
    if (p === null) delete out[k];
    else setOwn(out, k, mergePatch(Object.hasOwn(out, k) ? out[k] : undefined, p));
  }
  return out;
}

function depthOf(v: unknown, limit: number): number {
  if (typeof v !== 'object' || v === null) return 0;
  if (limit <= 0) return 1;
  let max = 0;
  for (const x of Object.values(v)) max = Math.max(max, depthOf(x, limit - 1));
  return max + 1;
}

/** Same JSON value: object key order ignored, -0 and NaN told apart as json5 does. */
function sameValue(a: unknown, b: unknown): boolean {
  if (typeof a !== 'object' || a === null || typeof b !== 'object' || b === null) return Object.is(a, b);
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  if (ka.length !== Object.keys(b).length) return false;
  const ra = a as Record<string, unknown>;
  const rb = b as Record<string, unknown>;
  return ka.every((k) => Object.hasOwn(rb, k) && sameValue(ra[k], rb[k]));
}

/**
 * `text` with a JSON merge patch applied, changing only what the patch names: new keys go at the
 * end of their object in its style, deleted keys take their line with them, replaced values are
 * written as JSON5. The result is checked to parse to `mergePatch(parse(text), patch)` before it
 * is returned, so a bug here can never write a config that means something else.
 */
export function applyMergePatch(text: string, patch: Record<string, unknown>): string {
  if (!isPlainObject(patch)) throw new AppError('validation', 'A config patch must be an object.');
  if (depthOf(patch, MAX_JSON5_DEPTH) > MAX_JSON5_DEPTH) throw new AppError('validation', `The config patch nests deeper than ${MAX_JSON5_DEPTH} levels.`);
  const { value, scan } = parseJson5Located(text);
  const editor = new Json5Editor(text, scan, mergePatch);
  editor.patchRoot(value, patch);
  const out = editor.result();
  const want = mergePatch(value, patch);
  let got: unknown;
  try {
    got = JSON5.parse(out);
  } catch (e) {
    throw new AppError('internal', 'Editing the JSON5 config produced text that does not parse.', { cause: e });
  }
  if (!sameValue(got, want)) throw new AppError('internal', 'Editing the JSON5 config produced a different value than the patch asks for.');
  return out;
}

/** Line changes between two texts (for previews), or null when they differ in more than 1000 lines. */
export function diffLines(before: string, after: string): { added: boolean; removed: boolean; value: string }[] | null {
  const changes = lineDiff(before, after, { maxEditLength: 1000 });
  return changes ? changes.map((c) => ({ added: c.added, removed: c.removed, value: c.value })) : null;
}
