/**
 * ClawHub-compatible local state: `<managedRoot>/.clawhub/lock.json`
 * and `<skill>/.clawhub/origin.json`. Field names and types follow ClawHub exactly
 * (installedAt is epoch milliseconds); unknown fields written by other tools are preserved.
 */
import fsp from 'node:fs/promises';
import path from 'node:path';
import { AppError } from '@/lib/core/errors';
import { readJsonFile, writeJsonAtomic } from '../../core/atomic-fs';
import { withKeyLock } from './key-lock';

export interface ClawhubLockEntry {
  version: string;
  /** Epoch milliseconds. */
  installedAt: number;
  ownerHandle?: string;
  sourceRef?: string;
  canonicalRef?: string;
  clawhubScan?: unknown;
  pinned?: boolean;
  pinReason?: string;
  [other: string]: unknown;
}

export interface ClawhubLock {
  version: 1;
  skills: Record<string, ClawhubLockEntry>;
  [other: string]: unknown;
}

export interface ClawhubOrigin {
  version: 1;
  registry: string;
  slug: string;
  ownerHandle?: string;
  installedVersion: string;
  /** Epoch milliseconds. */
  installedAt: number;
  fingerprint?: string;
}

export const CLAWHUB_DIR = '.clawhub';
export const lockFilePath = (managedRoot: string) => path.join(managedRoot, CLAWHUB_DIR, 'lock.json');
export const originFilePath = (skillDir: string) => path.join(skillDir, CLAWHUB_DIR, 'origin.json');

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export async function readLock(managedRoot: string): Promise<ClawhubLock> {
  const file = lockFilePath(managedRoot);
  let raw: unknown;
  try {
    raw = await readJsonFile(file);
  } catch (e) {
    const bad = e instanceof SyntaxError;
    throw new AppError('internal', bad ? `${file} is not valid JSON: ${e.message}` : `${file} cannot be read: ${(e as Error).message}`, {
      cause: e,
      ...(bad ? { hint: 'Fix or remove the lock file; entries are rewritten from the version store on the next install.' } : {}),
    });
  }
  if (raw === null) return { version: 1, skills: {} };
  if (!isRecord(raw) || !isRecord(raw.skills)) {
    throw new AppError('internal', `${file} is not a ClawHub lock file (expected {version:1, skills:{…}}).`);
  }
  return { ...raw, version: 1, skills: raw.skills as Record<string, ClawhubLockEntry> };
}

/** Read-modify-write lock.json under one in-process lock per managed root, written atomically. */
export async function updateLock(managedRoot: string, mutate: (lock: ClawhubLock) => void): Promise<ClawhubLock> {
  return withKeyLock(`lock.json\0${path.resolve(managedRoot)}`, async () => {
    const lock = await readLock(managedRoot);
    mutate(lock);
    await fsp.mkdir(path.join(managedRoot, CLAWHUB_DIR), { recursive: true });
    await writeJsonAtomic(lockFilePath(managedRoot), lock);
    return lock;
  });
}

/** Drop undefined fields so the JSON carries only what is known. */
export function compact<T extends object>(o: T): T {
  return Object.fromEntries(Object.entries(o as Record<string, unknown>).filter(([, v]) => v !== undefined)) as T;
}

export async function writeOrigin(skillDir: string, origin: ClawhubOrigin): Promise<void> {
  await fsp.mkdir(path.join(skillDir, CLAWHUB_DIR), { recursive: true });
  await writeJsonAtomic(originFilePath(skillDir), compact(origin));
}
