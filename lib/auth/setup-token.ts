import { createHash, timingSafeEqual } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { AppError } from '../core/errors';
import { randomToken } from '../core/ids';
import { trimEndChar } from '../core/text';

/**
 * The one-time secret that first-run setup requires, so whoever reaches a fresh instance first
 * cannot claim it. Only the process that can read the data dir (or its log) knows it.
 */
export const SETUP_TOKEN_FILE = 'setup-token';

const fileOf = (dataDir: string) => path.join(dataDir, SETUP_TOKEN_FILE);

export function readSetupToken(dataDir: string): string | null {
  try {
    return fs.readFileSync(fileOf(dataDir), 'utf8').trim() || null;
  } catch {
    return null;
  }
}

/** Returns the current token, creating it (mode 0600, never overwriting a concurrent writer's) when absent. */
export function ensureSetupToken(dataDir: string): string {
  const existing = readSetupToken(dataDir);
  if (existing) return existing;
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const file = fileOf(dataDir);
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, `${randomToken(24)}\n`, { mode: 0o600, flag: 'w' });
  const fd = fs.openSync(tmp, 'r');
  fs.fsyncSync(fd);
  fs.closeSync(fd);
  try {
    fs.linkSync(tmp, file);
  } catch {
    /* another process created it first: theirs is the token */
  } finally {
    fs.unlinkSync(tmp);
  }
  return readSetupToken(dataDir) ?? '';
}

export function removeSetupToken(dataDir: string): void {
  fs.rmSync(fileOf(dataDir), { force: true });
}

const digest = (s: string) => createHash('sha256').update(s, 'utf8').digest();

/** Compares in constant time (over fixed-length digests, so the length leaks nothing either). */
export function setupTokenMatches(expected: string | null, given: string | null | undefined): boolean {
  if (!expected || !given) return false;
  return timingSafeEqual(digest(expected), digest(given.trim()));
}

export function requireSetupToken(dataDir: string, given: string | null | undefined): void {
  if (setupTokenMatches(readSetupToken(dataDir), given)) return;
  throw new AppError(
    'forbidden',
    given
      ? 'The setup token is wrong. Use the setup URL printed in the server log, or the token in the data dir file "setup-token".'
      : 'First-run setup needs the one-time setup token: open the setup URL printed in the server log, or copy the token from the data dir file "setup-token".',
    { issues: [{ path: 'token', message: given ? 'Wrong setup token' : 'Enter the setup token' }] },
  );
}

/** The line the server logs while no owner exists. */
export function setupUrl(base: string, token: string): string {
  return `${trimEndChar(base, '/')}/setup?token=${encodeURIComponent(token)}`;
}
