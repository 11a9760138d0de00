/** Scanner verdicts kept in the database by content hash, so a restart reuses them instead of rescanning. */
import { and, eq, sql } from 'drizzle-orm';
import type { AppDb } from '@/db/client';
import { skillScanResults } from '@/db/schema';
import { SCANNER_VERSION } from '../scanner';
import type { ScanFinding, ScanResult } from '../types';

const excluded = (column: string) => sql.raw(`excluded.${column}`);

export async function loadScanResults(db: AppDb): Promise<Map<string, ScanResult>> {
  const rows = await db.select().from(skillScanResults).where(eq(skillScanResults.scannerVersion, SCANNER_VERSION));
  return new Map(
    rows.map((r) => [
      r.contentHash,
      {
        verdict: r.verdict as ScanResult['verdict'],
        findings: r.findings as ScanFinding[],
        filesScanned: r.filesScanned,
        ...(r.error ? { error: r.error } : {}),
      },
    ]),
  );
}

/** Stores new verdicts (a row of an older scanner version is replaced). */
export async function saveScanResults(db: AppDb, results: [string, ScanResult][]): Promise<void> {
  for (let i = 0; i < results.length; i += 200) {
    const values = results.slice(i, i + 200).map(([contentHash, r]) => ({
      contentHash,
      scannerVersion: SCANNER_VERSION,
      verdict: r.verdict,
      findings: r.findings,
      filesScanned: r.filesScanned,
      error: r.error ?? null,
      scannedAt: new Date(),
    }));
    await db
      .insert(skillScanResults)
      .values(values)
      .onConflictDoUpdate({
        target: skillScanResults.contentHash,
        set: {
          scannerVersion: SCANNER_VERSION,
          verdict: excluded('verdict'),
          findings: excluded('findings'),
          filesScanned: excluded('files_scanned'),
          error: excluded('error'),
          scannedAt: new Date(),
        },
      });
  }
}

/** The stored verdict of one content hash by the current scanner, or null. */
export async function loadScanResult(db: AppDb, contentHash: string): Promise<ScanResult | null> {
  const [r] = await db
    .select()
    .from(skillScanResults)
    .where(and(eq(skillScanResults.contentHash, contentHash), eq(skillScanResults.scannerVersion, SCANNER_VERSION)));
  if (!r) return null;
  return {
    verdict: r.verdict as ScanResult['verdict'],
    findings: r.findings as ScanFinding[],
    filesScanned: r.filesScanned,
    ...(r.error ? { error: r.error } : {}),
  };
}
