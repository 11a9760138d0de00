import { AppError, type FieldIssue } from '../../core/errors';
import { cutAt } from '../../core/text';
import { normalizePipName, parsePackageSpec } from '../spec';
import type { PackageSpec } from '../types';

/**
 * Import name → pip package. Applied to auto-scanned Python
 * imports, never to `deps:` entries (those name the pip package themselves). Data, not code:
 * admins extend it with `aliasOverrides` (validated by `validateAliasOverrides`).
 */
export interface PipAlias {
  /** Top-level import name. */
  import: string;
  /** pip spec body (no `pip:` prefix); extras allowed, e.g. `psycopg[binary]`. */
  pip: string;
  /** System libraries the package needs at run time, when known. */
  hint?: string;
  /** `spec`: the table; `extra`: common mappings added by Skilldock. */
  origin: 'spec' | 'extra';
}

export const PIP_ALIASES: readonly PipAlias[] = [
  { import: 'cv2', pip: 'opencv-python', hint: 'needs libGL and libglib at run time on slim images (apt: libgl1 libglib2.0-0)', origin: 'spec' },
  { import: 'PIL', pip: 'Pillow', origin: 'spec' },
  { import: 'yaml', pip: 'pyyaml', origin: 'spec' },
  { import: 'sklearn', pip: 'scikit-learn', origin: 'spec' },
  { import: 'bs4', pip: 'beautifulsoup4', origin: 'spec' },
  { import: 'dateutil', pip: 'python-dateutil', origin: 'spec' },
  { import: 'dotenv', pip: 'python-dotenv', origin: 'spec' },
  { import: 'pptx', pip: 'python-pptx', origin: 'spec' },
  { import: 'docx', pip: 'python-docx', origin: 'spec' },
  { import: 'attr', pip: 'attrs', origin: 'spec' },
  { import: 'gi', pip: 'PyGObject', hint: 'builds against gobject-introspection (apt: libgirepository1.0-dev libcairo2-dev pkg-config)', origin: 'spec' },
  { import: 'psycopg2', pip: 'psycopg2-binary', origin: 'spec' },
  { import: 'psycopg', pip: 'psycopg[binary]', origin: 'spec' },
  { import: 'MySQLdb', pip: 'mysqlclient', hint: 'builds against the MySQL client library (apt: default-libmysqlclient-dev pkg-config)', origin: 'spec' },
  { import: 'Crypto', pip: 'pycryptodome', origin: 'spec' },
  { import: 'serial', pip: 'pyserial', origin: 'spec' },
  { import: 'skimage', pip: 'scikit-image', origin: 'spec' },
  { import: 'Levenshtein', pip: 'python-Levenshtein', origin: 'spec' },
  { import: 'jwt', pip: 'PyJWT', origin: 'extra' },
  { import: 'OpenSSL', pip: 'pyOpenSSL', origin: 'extra' },
  { import: 'fitz', pip: 'PyMuPDF', origin: 'extra' },
  { import: 'magic', pip: 'python-magic', hint: 'needs libmagic (apt: libmagic1)', origin: 'extra' },
  { import: 'git', pip: 'GitPython', hint: 'needs the git binary', origin: 'extra' },
  { import: 'slugify', pip: 'python-slugify', origin: 'extra' },
  { import: 'multipart', pip: 'python-multipart', origin: 'extra' },
  { import: 'zmq', pip: 'pyzmq', origin: 'extra' },
  { import: 'usb', pip: 'pyusb', origin: 'extra' },
  { import: 'socks', pip: 'PySocks', origin: 'extra' },
  { import: 'Bio', pip: 'biopython', origin: 'extra' },
  { import: 'googleapiclient', pip: 'google-api-python-client', origin: 'extra' },
  { import: 'telegram', pip: 'python-telegram-bot', origin: 'extra' },
];

/** A Python identifier (ASCII) and a dotted import path of them. */
export const PY_IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;
export const PY_IMPORT_PATH = /^[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*$/;

/** The alias table as a map, with validated admin overrides applied on top. */
export function aliasTable(overrides?: Readonly<Record<string, string>>): Map<string, PipAlias> {
  const table = new Map(PIP_ALIASES.map((a) => [a.import, a]));
  if (overrides) {
    for (const [imp, pip] of Object.entries(validateAliasOverrides(overrides))) table.set(imp, { import: imp, pip, origin: 'extra' });
  }
  return table;
}

/**
 * Checks an admin-edited alias table: keys are Python identifiers, values pip specs without a
 * version (`name` or `name[extra]`, with or without the `pip:` prefix). Returns the values without
 * the prefix; throws AppError('validation') listing every bad row.
 */
export function validateAliasOverrides(overrides: Readonly<Record<string, unknown>>): Record<string, string> {
  const issues: FieldIssue[] = [];
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(overrides)) {
    if (!PY_IDENTIFIER.test(key)) {
      issues.push({
        path: `aliases.${key}`,
        message: `"${key.slice(0, 60)}" is not a Python import name (letters, digits and '_', not starting with a digit)`,
      });
      continue;
    }
    if (typeof value !== 'string') {
      issues.push({ path: `aliases.${key}`, message: 'the pip package must be a string' });
      continue;
    }
    const body = value.startsWith('pip:') ? value.slice(4) : value;
    try {
      const spec = parsePackageSpec(`pip:${body}`, { context: 'deps' });
      if (spec.version) throw new AppError('validation', `"${value}" has a version; an alias names a package, not a version`);
      out[key] = body;
    } catch (e) {
      issues.push({ path: `aliases.${key}`, message: (e as Error).message });
    }
  }
  if (issues.length) {
    throw new AppError('validation', `The import alias table has ${issues.length} invalid row(s): ${issues.map((i) => i.message).join('; ')}`, { issues });
  }
  return out;
}

/** The pip spec a scanned import maps to, and the alias applied (if any). Throws on an invalid name. */
export function pipSpecForImport(importName: string, table: ReadonlyMap<string, PipAlias>): { spec: PackageSpec; alias?: PipAlias } {
  const alias = table.get(importName);
  const spec = parsePackageSpec(`pip:${alias ? alias.pip : importName}`, { context: 'deps' });
  return alias ? { spec, alias } : { spec };
}

/** Reverse lookup: the import name of a pip package from the alias table, if listed. */
export function importNameForPip(pipName: string, table: ReadonlyMap<string, PipAlias> = aliasTable()): string | undefined {
  const wanted = normalizePipName(pipName);
  for (const a of table.values()) {
    const name = cutAt(a.pip, '[');
    if (normalizePipName(name) === wanted) return a.import;
  }
  return undefined;
}

/**
 * The module name the availability check imports for a pip package: the explicit import name,
 * else the reverse alias, else the PEP 503 normalised name with `-` → `_`.
 */
export function pipImportName(spec: PackageSpec, importName?: string, table?: ReadonlyMap<string, PipAlias>): string {
  return importName ?? importNameForPip(spec.name, table) ?? normalizePipName(spec.name).replace(/-/g, '_');
}
