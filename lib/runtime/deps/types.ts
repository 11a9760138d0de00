import type { PackageSpec } from '../types';

/**
 * Types of the skill dependency library: SKILL.md `deps:` /
 * `exclude_deps:`, the script auto-scan, precedence and the availability check.
 */

/** Where a diagnostic comes from: a front-matter key, the front matter as a whole, or the script scan. */
export type DepDiagnosticKey = 'deps' | 'exclude_deps' | 'frontmatter' | 'scan';

/** A problem shown to the author. Nothing is ever dropped without one. */
export interface DepDiagnostic {
  key: DepDiagnosticKey;
  /** 1-based line in SKILL.md (front-matter keys) or in `file` (scan). */
  line?: number;
  /** Skill-relative path of the scanned file (scan diagnostics). */
  file?: string;
  /** The offending text, as written. */
  raw?: string;
  message: string;
}

/** One valid entry of `deps:` or `exclude_deps:`. */
export interface DepEntry {
  /** The YAML item as written (trimmed), including any `#importName` suffix. */
  raw: string;
  /** Parsed with the one spec grammar (`parsePackageSpec(…, { context: 'deps' })`). */
  spec: PackageSpec;
  /** 1-based line of the item in SKILL.md. */
  line: number;
  /** pip only: the import name given with `pip:beautifulsoup4#bs4`. */
  importName?: string;
}

export interface ParsedSkillDeps {
  /** null when the front matter has no `deps` key (then the auto-scan decides). */
  declared: DepEntry[] | null;
  excluded: DepEntry[];
  diagnostics: DepDiagnostic[];
}

export interface DepLocation {
  /** Skill-relative path, forward slashes. */
  file: string;
  line: number;
}

/** An import-name → pip-package mapping that was applied to a scanned import. */
export interface DepAlias {
  /** The Python import name, e.g. `cv2`. */
  from: string;
  /** The pip spec it maps to, e.g. `opencv-python` or `psycopg[binary]`. */
  to: string;
  /** A system-library hint for the mapping, when known. */
  hint?: string;
}

export type ScannedDepKind = 'pip' | 'npm' | 'binary';

/** A dependency found in the skill's scripts, deduplicated by spec. */
export interface ScannedDep {
  kind: ScannedDepKind;
  /** pip: the top-level module imported; npm: the package name as imported. */
  importName?: string;
  spec: PackageSpec;
  /** First occurrence. */
  file: string;
  line: number;
  /** Every occurrence, in scan order. */
  where: DepLocation[];
  alias?: DepAlias;
}

export interface FileToScan {
  /** Skill-relative path, forward slashes (e.g. `scripts/run.py`). */
  path: string;
  content: string;
}

export type DepSource = 'declared' | 'scanned';

export interface ResolvedDep {
  spec: PackageSpec;
  source: DepSource;
  /** pip: the module name the availability check looks for. */
  importName?: string;
  alias?: DepAlias;
  /** Scan occurrences (for declared deps: where the scan saw the same package, if it did). */
  where?: DepLocation[];
  /** Declared deps: the line in SKILL.md. */
  line?: number;
}

export interface ResolveResult {
  /** The final list. */
  deps: ResolvedDep[];
  /** Scanned deps removed by `exclude_deps:` (only when `deps:` is absent). */
  excludedScanned: ScannedDep[];
  /** `exclude_deps:` entries that matched no scanned dep (only when `deps:` is absent). */
  unusedExcludes: DepEntry[];
  /** `deps:` present: scanned deps it does not list (advisory only, never installed). */
  undeclaredScanned: ScannedDep[];
  /** `deps:` present and `exclude_deps:` non-empty: the excludes were ignored. */
  excludesIgnored: boolean;
}

export type DepStatus = 'ok' | 'missing' | 'unknown';

export interface CheckedDep extends ResolvedDep {
  status: DepStatus;
  /** Version and location found, or why the dep is missing or could not be checked. */
  detail: string;
}

export interface CheckOptions {
  /** The skill folder: its `scripts/` dir (and the folder itself) go on PYTHONPATH for the check. */
  skillDir?: string;
  /** Per checker process; default 5000 ms. */
  timeoutMs?: number;
  /** Interpreter names or absolute paths, looked up on the runtime PATH; default `python3` / `node`. */
  python?: string;
  node?: string;
  /** The base environment the runtime env is built on; default process.env. */
  baseEnv?: Readonly<Record<string, string | undefined>>;
}

export interface SkillDepsAnalysis extends ParsedSkillDeps, Omit<ResolveResult, 'deps'> {
  scanned: ScannedDep[];
  deps: CheckedDep[];
  /** Formatted specs of the deps whose status is `missing`. */
  missing: string[];
}
