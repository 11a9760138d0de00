import 'server-only';
// The first steps of a boot, before any domain exists: the data dir's secrets and locks, the
// version, and the first owner from the environment.
import fs from 'node:fs';
import path from 'node:path';
import type { Database } from '@/db/client';
import { setupFirstOwner, userCount } from './auth/users';
import type { Config } from './core/config';
import { lockDir } from './core/dir-lock';
import { isAppError } from './core/errors';
import { randomToken } from './core/ids';
import { logger } from './core/logger';

/** Reads a secret from the data dir, creating it once (mode 0600) if absent. */
export function persistentSecret(dataDir: string, name: string, bytes = 48): string {
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const file = path.join(dataDir, name);
  try {
    return fs.readFileSync(file, 'utf8').trim();
  } catch {
    const value = randomToken(bytes);
    const tmp = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, value + '\n', { mode: 0o600, flag: 'wx' });
    try {
      fs.linkSync(tmp, file); // fails if another process won the race; then theirs is used
    } catch {
      /* keep the existing one */
    } finally {
      fs.unlinkSync(tmp);
    }
    return fs.readFileSync(file, 'utf8').trim();
  }
}

export function appVersion(): string {
  try {
    return (JSON.parse(fs.readFileSync(path.join(process.cwd(), 'package.json'), 'utf8')) as { version: string }).version;
  } catch {
    return 'unknown';
  }
}

/** The data dir, and the runtime dir when it lies elsewhere, for this process alone (or a `conflict` naming the holder). */
export function lockDirs(config: Config): () => void {
  const locks = [lockDir(config.dataDir)];
  const rel = path.relative(config.dataDir, config.runtimeDir);
  if (rel.startsWith('..') || path.isAbsolute(rel)) {
    try {
      locks.push(lockDir(config.runtimeDir, 'runtime dir'));
    } catch (e) {
      locks[0].release();
      throw e;
    }
  }
  return () => locks.forEach((l) => l.release());
}

/**
 * Replicas booting together on an empty database: one creates the owner, the others see it.
 * setupFirstOwner serialises itself (a transaction lock and a recount), so a loser gets setup_done.
 * An outer lock on the same key here would wait for that transaction's connection forever.
 */
export async function bootstrapOwner(database: Database, config: Config): Promise<void> {
  const { SKILLDOCK_ADMIN_EMAIL: email, SKILLDOCK_ADMIN_PASSWORD: password } = config;
  if (!email || !password || (await userCount(database.db)) > 0) return;
  try {
    await setupFirstOwner(database.db, { email: email.toLowerCase(), name: 'Owner', password });
    logger.info('created the first owner from SKILLDOCK_ADMIN_EMAIL', { email });
  } catch (e) {
    if (!isAppError(e) || e.code !== 'setup_done') throw e;
  }
}
