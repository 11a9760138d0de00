// Bounds of one collection of /workspace/output and how long collections are kept. Constants the
// composition root (or a test) may override per call; the sandbox never chooses any of them.
export interface ArtifactLimits {
  /** Bytes kept per collection (all files together); a file that does not fit is left out. */
  maxBytes: number;
  /** Files kept per collection. */
  maxFiles: number;
  /** Bytes read from the sandbox per collection, kept or not; reading stops past it. */
  maxScanBytes: number;
  /** Archive entries looked at per collection (folders, links and left-out files count too). */
  maxEntries: number;
  /** Folder depth below /workspace/output. */
  maxDepth: number;
  /** A collection taking longer is cut off (what was kept stays). */
  timeoutMs: number;
  /** Collections kept per config, newest first; older ones go at the retention sweep. */
  keepPerConfig: number;
  /** Collections older than this many days go at the retention sweep. */
  maxAgeDays: number;
}

export const ARTIFACT_LIMITS: ArtifactLimits = {
  maxBytes: 64 * 1024 * 1024,
  maxFiles: 1000,
  maxScanBytes: 256 * 1024 * 1024,
  maxEntries: 20_000,
  maxDepth: 32,
  timeoutMs: 120_000,
  keepPerConfig: 50,
  maxAgeDays: 30,
};

export const OUTPUT_DIR = '/workspace/output';

export function artifactLimits(over: Partial<ArtifactLimits> = {}): ArtifactLimits {
  return { ...ARTIFACT_LIMITS, ...over };
}
