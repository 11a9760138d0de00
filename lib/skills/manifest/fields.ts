import type { Os } from '../types';
import { httpUrl, type KeyPath, type Reporter, readString, readStringList, showPath } from './report';

/** Field rules shared by the metadata block and install specs. */
export const OS_VALUES: readonly Os[] = ['darwin', 'linux', 'win32'];
export const ENV_NAME_RE = /^[A-Za-z_][A-Za-z0-9_]*$/;
const BIN_NAME_RE = /^[^\s/\\\u0000-\u001f\u007f]{1,128}$/;

/** A program name looked up on PATH: no "/", no whitespace, at most 128 characters. */
export const isBinName = (s: string) => BIN_NAME_RE.test(s) && s !== '.' && s !== '..';

/**
 * Platform list. Unknown values are warnings and left out; null when values were given but none is
 * known (the caller must not read that as "every platform").
 */
export function readOs(r: Reporter, value: unknown, path: KeyPath): Os[] | null {
  const list = readStringList(r, value, path);
  const os: Os[] = [];
  for (const v of list) {
    if ((OS_VALUES as readonly string[]).includes(v)) os.push(v as Os);
    else r.warn('os.unknown', at(path, value, v), `unknown platform "${v.slice(0, 40)}" in "${showPath(path)}" is left out; use ${OS_VALUES.join(', ')}`);
  }
  return list.length > 0 && os.length === 0 ? null : os;
}

/** The path of the list item equal to `item` when the list is a real list (for its line). */
export function at(path: KeyPath, list: unknown, item: string): KeyPath {
  const i = Array.isArray(list) ? list.findIndex((v) => typeof v === 'string' && v.trim() === item) : -1;
  return i >= 0 ? [...path, i] : path;
}

/** An http(s) URL; anything else is a warning and is left out. */
export function readHomepage(r: Reporter, value: unknown, path: readonly (string | number)[]): string | undefined {
  const text = readString(r, value, path);
  if (!text) return undefined;
  if (!httpUrl(text)) {
    r.warn('homepage.invalid', path, `homepage "${text.slice(0, 80)}" is not an http(s) URL; it is not shown`);
    return undefined;
  }
  return text;
}
