/**
 * The scanner's say over work done for a skill outside its import: installing its dependencies
 * (on the host or into a sandbox) is refused while its content has critical findings, or a scan
 * that could not finish, that no admin acknowledged. Acknowledgements are read fresh by content hash.
 */
import { eq } from 'drizzle-orm';
import type { AppDb } from '@/db/client';
import { skillScanAcks } from '@/db/schema';
import { AppError } from '@/lib/core/errors';
import type { ScanResult } from '../types';

export const blocksWithoutAck = (scan: ScanResult): boolean => scan.verdict === 'critical' || scan.verdict === 'error';
export const criticalCount = (scan: ScanResult): number => scan.findings.filter((f) => f.severity === 'critical').length;

export async function isAcknowledged(db: AppDb, contentHash: string): Promise<boolean> {
  const [row] = await db.select({ contentHash: skillScanAcks.contentHash }).from(skillScanAcks).where(eq(skillScanAcks.contentHash, contentHash));
  return !!row;
}

export interface ScanSubject {
  name: string;
  contentHash: string;
  scan: ScanResult;
}

/** The refusal for a blocked subject (null when the scan lets it through). */
export async function scanRefusal(db: AppDb, s: ScanSubject, doing: string, hint?: string): Promise<AppError | null> {
  if (!blocksWithoutAck(s.scan) || (await isAcknowledged(db, s.contentHash))) return null;
  const n = criticalCount(s.scan);
  const found = s.scan.verdict === 'error' ? `a scan that could not finish (${s.scan.error ?? 'no reason given'})` : `${n} critical scanner finding(s)`;
  return new AppError('scan_blocked', `${s.name} has ${found} that no admin acknowledged: ${doing} is refused.`, {
    hint: hint ?? `Review the findings on the skill's Findings tab; an admin who accepts them acknowledges them with a reason there, then tries again.`,
    details: { skill: s.name, verdict: s.scan.verdict, criticalFindings: n, findings: s.scan.findings.length, acknowledged: false },
  });
}

export async function assertScanAllows(db: AppDb, s: ScanSubject, doing: string, hint?: string): Promise<void> {
  const refusal = await scanRefusal(db, s, doing, hint);
  if (refusal) throw refusal;
}
