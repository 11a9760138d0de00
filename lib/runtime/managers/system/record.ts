import fs from 'node:fs/promises';
import path from 'node:path';
import { writeJsonAtomic } from '../../../core/atomic-fs';
import { AppError } from '../../../core/errors';
import { runtimeLayout } from '../../dir';
import type { SystemManager } from '../../types';

/** One system package installed through Skilldock. */
export interface SystemRecordEntry {
  /** User-facing name, e.g. `github-cli`. */
  name: string;
  /** Real package name, e.g. `gh`. */
  package: string;
  manager: SystemManager;
  version: string;
  installedAt: string;
  installedBy: string;
}

function isEntry(v: unknown): v is SystemRecordEntry {
  const e = v as Partial<SystemRecordEntry> | null;
  return !!e && typeof e.name === 'string' && typeof e.package === 'string' && (e.manager === 'apt' || e.manager === 'apk');
}

export async function readSystemRecord(runtimeDir: string): Promise<SystemRecordEntry[]> {
  const file = runtimeLayout(runtimeDir).systemRecord;
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw e;
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw new AppError('invalid_state', `The system package record ${file} is not valid JSON; fix or remove it.`);
  }
  if (!Array.isArray(data)) throw new AppError('invalid_state', `The system package record ${file} is not a JSON list; fix or remove it.`);
  return data.filter(isEntry).map((e) => ({
    name: e.name,
    package: e.package,
    manager: e.manager,
    version: typeof e.version === 'string' ? e.version : '',
    installedAt: typeof e.installedAt === 'string' ? e.installedAt : '',
    installedBy: typeof e.installedBy === 'string' ? e.installedBy : '',
  }));
}

/** Replaces the record atomically (temp file beside it, fsync, rename, fsync of the folder). */
export async function writeSystemRecord(runtimeDir: string, entries: readonly SystemRecordEntry[]): Promise<void> {
  const layout = runtimeLayout(runtimeDir);
  await fs.mkdir(path.dirname(layout.systemRecord), { recursive: true, mode: 0o755 });
  const sorted = [...entries].sort((a, b) => a.name.localeCompare(b.name));
  await writeJsonAtomic(layout.systemRecord, sorted);
}

/** The record entry addressed by its user-facing name or by its real package name. */
export function findRecordEntry(entries: readonly SystemRecordEntry[], manager: SystemManager, nameOrPackage: string): SystemRecordEntry | undefined {
  return entries.find((e) => e.manager === manager && e.name === nameOrPackage) ?? entries.find((e) => e.manager === manager && e.package === nameOrPackage);
}
