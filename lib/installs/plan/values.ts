// The allowlists every value passes before it reaches an argv. Each check returns the value as it
// will be used, or a typed problem; nothing is escaped or repaired.
import { isAppError } from '../../core/errors';
import { PY_IMPORT_PATH } from '../../runtime/deps/aliases';
import { formatSpec, parsePackageSpec } from '../../runtime/spec';
import type { PackageSpec } from '../../runtime/types';
import { SKILL_NAME_RE } from '../../skills/manifest/top-level';
import type { PlanProblem } from './types';

export type Checked<T> = { ok: true; value: T } | { ok: false; problem: PlanProblem };

const ok = <T>(value: T): Checked<T> => ({ ok: true, value });
const bad = (problem: PlanProblem): Checked<never> => ({ ok: false, problem });

export const MODULE_NAME_RE = /^[A-Za-z_][A-Za-z0-9_.]*$/;
export const BIN_NAME_RE = /^[A-Za-z0-9._+-]+$/;
/** One path segment: letters, digits and . _ + @ , = - and inner spaces; no leading "-". */
const SEGMENT_RE = /^[\p{L}\p{N}._+@,=][\p{L}\p{N}._+@,= -]*$/u;
const SHA256_RE = /^[a-f0-9]{64}$/;
const MAX_PATH = 512;

/** The catalog's name rule: lowercase letters, digits and inner hyphens, at most 64 characters. */
export function checkSkillName(name: string): Checked<string> {
  if (name.length <= 64 && SKILL_NAME_RE.test(name)) return ok(name);
  return bad({
    code: 'invalid_name',
    value: name.slice(0, 80),
    message: `"${name.slice(0, 80)}" is not a skill name (lowercase letters, digits, inner hyphens)`,
  });
}

/** A relative, normalised path inside the skill folder: no "..", no "." segments, no segment starting with "-". */
export function checkRelativePath(p: string): Checked<string> {
  const fail = (why: string) => bad({ code: 'invalid_path', value: p.slice(0, 200), message: `file "${p.slice(0, 200)}" ${why}` });
  if (!p || p.length > MAX_PATH) return fail(`must be 1–${MAX_PATH} characters long`);
  if (p.startsWith('/')) return fail('must be relative to the skill folder');
  const segments = p.split('/');
  for (const s of segments) {
    if (s === '..') return fail('leaves the skill folder ("..")');
    if (s === '' || s === '.') return fail('is not a normalised path (empty or "." segment)');
    if (s.startsWith('-')) return fail('has a part starting with "-", which a program would read as an option');
    if (!SEGMENT_RE.test(s) || s.endsWith(' ')) return fail('has characters outside letters, digits, spaces and . _ + @ , = -');
  }
  return ok(p);
}

export function checkModuleName(name: string): Checked<string> {
  if (name.length <= 200 && MODULE_NAME_RE.test(name) && PY_IMPORT_PATH.test(name)) return ok(name);
  return bad({ code: 'invalid_value', field: 'module', value: name.slice(0, 80), message: `"${name.slice(0, 80)}" is not a Python module name` });
}

export function checkBinName(name: string): Checked<string> {
  if (name.length <= 128 && BIN_NAME_RE.test(name) && !name.startsWith('-') && name !== '.' && name !== '..') return ok(name);
  return bad({
    code: 'invalid_value',
    field: 'bin',
    value: name.slice(0, 80),
    message: `"${name.slice(0, 80)}" is not a program name (letters, digits, . _ + -)`,
  });
}

export function checkSha256(value: string | undefined): string | null {
  return value && SHA256_RE.test(value) ? value : null;
}

/** A package spec through the one spec grammar (install context); the parsed spec is what is used. */
export function checkPackageSpec(spec: PackageSpec | string, field: string): Checked<PackageSpec> {
  const raw = typeof spec === 'string' ? spec : formatSpec(spec);
  try {
    return ok(parsePackageSpec(raw, { context: 'install' }));
  } catch (e) {
    if (!isAppError(e)) throw e;
    return bad({ code: 'invalid_value', field, value: raw.slice(0, 120), message: e.message.replace(/\. Accepted forms: .*$/s, '') });
  }
}

/** The pip requirement argument of a parsed pip spec: name[extras]specifier. */
export function pipRequirement(spec: PackageSpec): string {
  return formatSpec(spec).slice('pip:'.length);
}

/** The npm argument of a parsed npm spec: name or name@version. */
export function npmRequirement(spec: PackageSpec): string {
  return formatSpec(spec).slice('npm:'.length);
}
