import fs from 'node:fs';
import path from 'node:path';
import { valid as pep440Valid } from '@renovatebot/pep440';
import { AppError } from '../../../core/errors';
import { normalizePipName } from '../../spec';
import type { ManagerContext } from '../../types';
import { type PipIndexSettings, type PipVersion, pipAtLeast, pipCommonFlags, pipIndexFlags, runPip } from './cmd';

const SDIST_EXT = /\.(?:tar\.gz|tar\.bz2|tar\.xz|zip)$/;

/**
 * The version a distribution file name carries for project `name`, if it is one of its files:
 * wheels `{name}-{version}(-{build})?-{py}-{abi}-{plat}.whl` (name escaped, no `-` in it),
 * sdists `{name}-{version}.tar.gz` (the name may keep its `-`, so match it by length).
 */
export function pipVersionFromFilename(file: string, name: string): string | undefined {
  const want = normalizePipName(name);
  let version: string | undefined;
  if (file.endsWith('.whl')) {
    const parts = file.slice(0, -4).split('-');
    if (parts.length >= 5 && normalizePipName(parts[0]) === want) version = parts[1];
  } else if (SDIST_EXT.test(file)) {
    const stem = file.replace(SDIST_EXT, '');
    if (stem[name.length] === '-' && normalizePipName(stem.slice(0, name.length)) === want) version = stem.slice(name.length + 1);
  }
  return version && pep440Valid(version) !== null ? version : undefined;
}

async function localVersions(dirs: readonly string[], name: string): Promise<string[]> {
  const found = new Set<string>();
  for (const dir of dirs) {
    let entries: string[];
    try {
      entries = await fs.promises.readdir(dir);
    } catch (e) {
      throw new AppError('unavailable', `The find-links directory ${dir} cannot be read: ${(e as Error).message}.`, {
        details: { manager: 'pip', class: 'not_found' },
      });
    }
    for (const f of entries) {
      const v = pipVersionFromFilename(path.basename(f), name);
      if (v) found.add(v);
    }
  }
  return [...found];
}

/** Parses `pip index versions` output: the line `Available versions: 2.0, 1.1, 1.0`. */
export function parsePipIndexVersions(stdout: string): string[] {
  const m = /^Available versions:(.*)$/m.exec(stdout);
  return m
    ? m[1]
        .split(',')
        .map((v) => v.trim())
        .filter(Boolean)
    : [];
}

/**
 * Versions the configured index offers for `name`, without installing anything. With `--no-index`
 * and only local find-links directories the wheel and sdist file names are read directly.
 */
export async function pipAvailableVersions(
  ctx: ManagerContext,
  name: string,
  index: PipIndexSettings,
  pip: () => Promise<PipVersion>,
  opts: { pre?: boolean; timeoutMs?: number } = {},
): Promise<string[]> {
  if (index.noIndex && index.findLinks.every((f) => path.isAbsolute(f))) return localVersions(index.findLinks, name);
  const v = await pip();
  if (!pipAtLeast(v, 21, 2)) {
    throw new AppError('unavailable', `pip ${v.text} cannot list an index's versions (pip index versions needs pip 21.2 or later); upgrade pip.`, {
      details: { manager: 'pip', class: 'unknown' },
    });
  }
  const args = ['index', 'versions', ...pipCommonFlags(v), ...pipIndexFlags(index), ...(opts.pre ? ['--pre'] : []), name];
  const r = await runPip({ ...ctx, log: undefined }, args, { timeoutMs: opts.timeoutMs ?? 60_000, what: `Looking up versions of ${name}` });
  return parsePipIndexVersions(r.stdout);
}
