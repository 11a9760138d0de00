import { parsePackageSpec } from '../../runtime/spec';
import type { InstallKind, InstallSpec, Os } from '../types';
import { at, isBinName, OS_VALUES } from './fields';
import { describeValue, httpUrl, isPlainObject, type KeyPath, type Reporter, showPath } from './report';

export const INSTALL_KINDS: readonly InstallKind[] = ['brew', 'node', 'go', 'uv', 'download'];
/** Install-spec validation, as OpenClaw's installer sanitiser applies it. */
export const BREW_FORMULA_RE = /^[A-Za-z0-9][A-Za-z0-9@+._/-]*$/;
export const GO_MODULE_RE = /^[A-Za-z0-9][A-Za-z0-9._~+\-/]*(?:@[A-Za-z0-9][A-Za-z0-9._~+\-/]*)?$/;
export const UV_PACKAGE_RE = /^[A-Za-z0-9][A-Za-z0-9._\-[\]=<>!~+,]*$/;
const SHA256_RE = /^[A-Fa-f0-9]{64}$/;
const ARCHIVES = ['tar.gz', 'tar.bz2', 'zip'] as const;
const COMMON_FIELDS = ['id', 'kind', 'type', 'label', 'bins', 'os'];
const KIND_FIELDS: Record<InstallKind, string[]> = {
  brew: ['formula', 'cask'],
  node: ['package'],
  go: ['module'],
  uv: ['package'],
  download: ['url', 'sha256', 'archive', 'extract', 'stripComponents', 'targetDir'],
};
// process-wide: a constant table, never written
const ALL_FIELDS = new Set([...COMMON_FIELDS, ...Object.values(KIND_FIELDS).flat()]);

/** `metadata.openclaw.install[]`: invalid specs are dropped with the reason, the rest mapped. */
export function readInstallSpecs(r: Reporter, value: unknown, path: KeyPath): InstallSpec[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) {
    r.error('key.type', path, `"${showPath(path)}" must be a list of installer specs, but it is ${describeValue(value)}; it is ignored`);
    return [];
  }
  const specs: InstallSpec[] = [];
  value.forEach((raw, i) => {
    const spec = readInstallSpec(r, raw, [...path, i]);
    if (spec) specs.push(spec);
  });
  return specs;
}

function readInstallSpec(r: Reporter, raw: unknown, path: KeyPath): InstallSpec | null {
  const drop = (reasons: string[]) => {
    const label = isPlainObject(raw) && typeof raw.label === 'string' ? ` ("${raw.label.slice(0, 60)}")` : '';
    r.warn('install.dropped', path, `installer ${showPath(path)}${label} is dropped: ${reasons.join('; ')}`);
    return null;
  };
  if (!isPlainObject(raw)) return drop([`it is ${describeValue(raw)}, not a mapping`]);
  const kindRaw = raw.kind ?? raw.type;
  if (typeof kindRaw !== 'string' || !kindRaw.trim()) return drop([`it has no "kind" (one of ${INSTALL_KINDS.join(', ')})`]);
  const kind = kindRaw.trim().toLowerCase() as InstallKind;
  if (!INSTALL_KINDS.includes(kind)) return drop([`kind "${kindRaw.slice(0, 40)}" is not one of ${INSTALL_KINDS.join(', ')}`]);

  const spec: InstallSpec = { kind, bins: [] };
  const reasons: string[] = [];
  for (const key of Object.keys(raw)) {
    if (COMMON_FIELDS.includes(key) || KIND_FIELDS[kind].includes(key)) continue;
    const hint = kind === 'brew' && key === 'tap' ? '; write the formula with its tap instead, e.g. "owner/tap/formula"' : '';
    const what = ALL_FIELDS.has(key) ? `is not used by kind "${kind}"` : 'is not an installer field';
    r.warn('install.key-unknown', [...path, key], `"${key}" in installer ${showPath(path)} ${what} and is ignored${hint}`);
  }
  for (const field of ['id', 'label'] as const) {
    const v = raw[field];
    if (typeof v === 'string' && v.trim()) spec[field] = v.trim();
    else if (v !== undefined && v !== null)
      r.warn('install.field-invalid', [...path, field], `"${field}" of installer ${showPath(path)} must be a string; it is ignored`);
  }
  spec.bins = readList(r, raw.bins, [...path, 'bins'], reasons).filter((b) => {
    if (!isBinName(b)) reasons.push(`bin "${b.slice(0, 60)}" is not a program name (no "/", no whitespace, at most 128 characters)`);
    return isBinName(b);
  });
  if (raw.os !== undefined && raw.os !== null) {
    const list = readList(r, raw.os, [...path, 'os'], reasons);
    const os = list.filter((v): v is Os => (OS_VALUES as readonly string[]).includes(v));
    for (const v of list.filter((v) => !(os as string[]).includes(v))) {
      r.warn(
        'os.unknown',
        at([...path, 'os'], raw.os, v),
        `unknown platform "${v.slice(0, 40)}" in installer ${showPath(path)} is left out; use ${OS_VALUES.join(', ')}`,
      );
    }
    if (list.length > 0 && os.length === 0) reasons.push(`"os" names no known platform (${OS_VALUES.join(', ')})`);
    if (os.length) spec.os = os;
  }
  readKindFields(raw, spec, reasons);
  if (reasons.length) return drop(reasons);
  mapPackageSpec(r, spec, path);
  return spec;
}

/** A list of strings; a single string is split on commas (OpenClaw does) with a warning. */
function readList(r: Reporter, value: unknown, path: KeyPath, reasons: string[]): string[] {
  if (value === undefined || value === null) return [];
  if (typeof value === 'string') {
    const items = value
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    r.warn('install.field-invalid', path, `"${showPath(path)}" should be a list; the string was read as ${JSON.stringify(items)}`);
    return items;
  }
  if (!Array.isArray(value) || value.some((v) => typeof v !== 'string')) {
    reasons.push(
      `"${String(path[path.length - 1])}" must be a list of strings, but it is ${Array.isArray(value) ? 'a list with non-string items' : describeValue(value)}`,
    );
    return [];
  }
  return [...new Set((value as string[]).map((s) => s.trim()).filter(Boolean))];
}

/** The required field of each kind and the download options. */
function readKindFields(raw: Record<string, unknown>, spec: InstallSpec, reasons: string[]): void {
  const required = (key: string): string | undefined => {
    const v = raw[key];
    if (typeof v === 'string' && v.trim()) return v.trim();
    reasons.push(v === undefined || v === null ? `kind "${spec.kind}" needs "${key}"` : `"${key}" must be a string, but it is ${describeValue(v)}`);
    return undefined;
  };
  if (spec.kind === 'brew') {
    const formula = required(raw.formula === undefined && raw.cask !== undefined ? 'cask' : 'formula');
    if (formula && (!BREW_FORMULA_RE.test(formula) || formula.includes('..'))) {
      reasons.push(`formula "${formula.slice(0, 80)}" is not a Homebrew formula name (letters, digits, @ + . _ / -; no leading "-", no "..")`);
    } else if (formula) spec.formula = formula;
  } else if (spec.kind === 'node') {
    const pkg = required('package');
    if (pkg) {
      const error = specError(`npm:${pkg}`);
      if (error) reasons.push(`package "${pkg.slice(0, 80)}" is not an npm registry package: ${error}`);
      else spec.package = pkg;
    }
  } else if (spec.kind === 'go') {
    const mod = required('module');
    if (mod && (mod.includes('://') || !GO_MODULE_RE.test(mod))) {
      reasons.push(`module "${mod.slice(0, 80)}" is not a Go module path such as "github.com/owner/tool/cmd/tool@latest" (no "://")`);
    } else if (mod) spec.module = mod;
  } else if (spec.kind === 'uv') {
    const pkg = required('package');
    if (pkg && !UV_PACKAGE_RE.test(pkg)) {
      reasons.push(`package "${pkg.slice(0, 80)}" is not a Python package spec (letters, digits and . _ - [ ] = < > ! ~ + , starting with a letter or digit)`);
    } else if (pkg) spec.package = pkg;
  } else {
    readDownload(raw, spec, reasons, required);
  }
}

function readDownload(raw: Record<string, unknown>, spec: InstallSpec, reasons: string[], required: (key: string) => string | undefined): void {
  const url = required('url');
  if (url && !httpUrl(url)) reasons.push(`url "${url.slice(0, 80)}" is not an http(s) URL`);
  else if (url) spec.url = url;
  const { sha256, archive, extract, stripComponents, targetDir } = raw;
  if (sha256 !== undefined && sha256 !== null) {
    if (typeof sha256 === 'string' && SHA256_RE.test(sha256.trim())) spec.sha256 = sha256.trim().toLowerCase();
    else reasons.push('"sha256" must be 64 hexadecimal characters');
  }
  if (archive !== undefined && archive !== null) {
    if ((ARCHIVES as readonly unknown[]).includes(archive)) spec.archive = archive as InstallSpec['archive'];
    else reasons.push(`"archive" must be one of ${ARCHIVES.join(', ')}, not ${describeValue(archive)}`);
  }
  if (extract !== undefined && extract !== null) {
    if (typeof extract === 'boolean') spec.extract = extract;
    else reasons.push(`"extract" must be true or false, not ${describeValue(extract)}`);
  }
  if (stripComponents !== undefined && stripComponents !== null) {
    if (typeof stripComponents === 'number' && Number.isInteger(stripComponents) && stripComponents >= 0) spec.stripComponents = stripComponents;
    else reasons.push(`"stripComponents" must be a whole number ≥ 0, not ${describeValue(stripComponents)}`);
  }
  if (targetDir !== undefined && targetDir !== null) {
    const bad =
      typeof targetDir !== 'string' || !targetDir.trim()
        ? 'must be a non-empty string'
        : /^([/~\\]|[A-Za-z]:)/.test(targetDir.trim()) || targetDir.split(/[/\\]/).includes('..') || /[\u0000-\u001f]/.test(targetDir)
          ? 'must be a relative folder inside the tools folder (no leading "/" or "~", no "..")'
          : undefined;
    if (bad) reasons.push(`"targetDir" ${bad}`);
    else spec.targetDir = (targetDir as string).trim();
  }
}

/** Uv → pip:, node → npm:, a GitHub release download → github:owner/repo[@tag]; brew and go have none. */
function mapPackageSpec(r: Reporter, spec: InstallSpec, path: KeyPath): void {
  const candidate =
    spec.kind === 'uv'
      ? `pip:${spec.package}`
      : spec.kind === 'node'
        ? `npm:${spec.package}`
        : spec.kind === 'download'
          ? githubReleaseSpec(spec.url!)
          : undefined;
  if (!candidate) return;
  const error = specError(candidate);
  if (error) {
    r.warn(
      'install.unmapped',
      path,
      `installer ${showPath(path)} cannot be run as the package "${candidate.slice(0, 120)}" (${error}); it stays a ${spec.kind} installer`,
    );
    return;
  }
  spec.packageSpec = candidate;
}

/** `https://github.com/<owner>/<repo>/releases/download/<tag>/<asset>` (or `releases/latest/download/<asset>`). */
export function githubReleaseSpec(url: string): string | undefined {
  const parsed = httpUrl(url);
  if (parsed?.protocol !== 'https:' || parsed.hostname !== 'github.com' || parsed.port) return undefined;
  let parts: string[];
  try {
    parts = parsed.pathname.split('/').slice(1).map(decodeURIComponent);
  } catch {
    return undefined;
  }
  const [owner, repo, releases, a, b] = parts;
  if (!owner || !repo || releases !== 'releases') return undefined;
  if (a === 'download' && b && parts.length >= 6) return `github:${owner}/${repo}@${b}`;
  if (a === 'latest' && b === 'download' && parts.length >= 6) return `github:${owner}/${repo}`;
  return undefined;
}

/** parsePackageSpec's reason without its list of accepted forms, or null when the spec parses. */
function specError(spec: string): string | null {
  try {
    parsePackageSpec(spec);
    return null;
  } catch (e) {
    return (e as Error).message.replace(/\. Accepted forms: .*$/s, '').replace(/^Invalid package spec "[^"]*": /, '');
  }
}
