import { normalizePipName } from '../spec';
import type { PackageSpec } from '../types';
import { aliasTable, importNameForPip, type PipAlias } from './aliases';
import type { DepEntry, ResolvedDep, ResolveResult, ScannedDep } from './types';

/** Manager family for matching: apt:, apk:, system: and bare names are all system packages. */
function family(spec: PackageSpec): string {
  return spec.manager === 'apt' || spec.manager === 'apk' ? 'system' : spec.manager;
}

function normName(spec: PackageSpec): string {
  if (spec.manager === 'pip') return normalizePipName(spec.name);
  return spec.name.toLowerCase();
}

const matchKey = (spec: PackageSpec) => `${family(spec)}:${normName(spec)}`;

/** Keys under which a scanned dep can be named: its spec, and for pip its import name (`pip:cv2` excludes opencv-python). */
function scannedKeys(d: ScannedDep): string[] {
  const keys = [matchKey(d.spec)];
  if (d.kind === 'pip' && d.importName) keys.push(`pip:${normalizePipName(d.importName)}`);
  return keys;
}

/**
 * Precedence:
 * - `deps:` present → declared as-is (authoritative); `exclude_deps:` ignored; the scan is advisory.
 * - `deps:` absent → the scan result minus the `exclude_deps:` entries (matched by manager + normalised name).
 */
export function resolveSkillDeps(input: {
  declared: DepEntry[] | null;
  excluded: DepEntry[];
  scanned: ScannedDep[];
  aliasOverrides?: Readonly<Record<string, string>>;
}): ResolveResult {
  const { declared, excluded, scanned } = input;
  if (declared) {
    const table: ReadonlyMap<string, PipAlias> = aliasTable(input.aliasOverrides);
    const byKey = new Map<string, ScannedDep>();
    for (const s of scanned) for (const k of scannedKeys(s)) if (!byKey.has(k)) byKey.set(k, s);
    const covered = new Set<ScannedDep>();
    const deps: ResolvedDep[] = declared.map((e) => {
      const seen = byKey.get(matchKey(e.spec));
      if (seen) covered.add(seen);
      const importName = e.spec.manager === 'pip' ? (e.importName ?? importNameForPip(e.spec.name, table)) : undefined;
      return {
        spec: e.spec,
        source: 'declared',
        line: e.line,
        ...(importName ? { importName } : {}),
        ...(seen ? { where: seen.where } : {}),
      };
    });
    return {
      deps,
      excludedScanned: [],
      unusedExcludes: [],
      undeclaredScanned: scanned.filter((s) => !covered.has(s)),
      excludesIgnored: excluded.length > 0,
    };
  }

  const used = new Set<DepEntry>();
  const excludeByKey = new Map<string, DepEntry>();
  for (const e of excluded) if (!excludeByKey.has(matchKey(e.spec))) excludeByKey.set(matchKey(e.spec), e);
  const deps: ResolvedDep[] = [];
  const excludedScanned: ScannedDep[] = [];
  for (const s of scanned) {
    const hit = scannedKeys(s)
      .map((k) => excludeByKey.get(k))
      .find((e): e is DepEntry => e !== undefined);
    if (hit) {
      used.add(hit);
      excludedScanned.push(s);
      continue;
    }
    deps.push({
      spec: s.spec,
      source: 'scanned',
      ...(s.importName && s.kind === 'pip' ? { importName: s.importName } : {}),
      ...(s.alias ? { alias: s.alias } : {}),
      where: s.where,
    });
  }
  return {
    deps,
    excludedScanned,
    unusedExcludes: excluded.filter((e) => !used.has(e)),
    undeclaredScanned: [],
    excludesIgnored: false,
  };
}
