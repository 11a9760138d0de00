/**
 * The skill archive policy layered on the shared entry policy of every archive reader
 * (lib/archive/sink.ts): same name checks, collision checks, running caps and
 * O_EXCL|O_NOFOLLOW writes, plus what a skill may never hold — links, devices, FIFOs —
 * a path-depth cap and a compression-ratio cap that trips while bytes are being inflated.
 */

import { AppError } from '@/lib/core/errors';
import { ExtractSink, tooLarge, unsafe } from '../../archive/sink';

const MiB = 1024 * 1024;

export interface SkillArchiveLimits {
  /** Size of the archive file itself; default 256 MiB. */
  maxArchiveBytes?: number;
  /** Default 50,000. */
  maxEntries?: number;
  /** Uncompressed bytes over all entries; default 512 MiB. */
  maxTotalBytes?: number;
  /** Uncompressed bytes of one entry; default 256 MiB. */
  maxEntryBytes?: number;
  /** Path segments of one entry; default 256. */
  maxPathComponents?: number;
  /** Extracted bytes / archive bytes, checked once more than 1 MiB is extracted; default 200. */
  maxRatio?: number;
}

export const DEFAULT_SKILL_ARCHIVE_LIMITS: Required<SkillArchiveLimits> = {
  maxArchiveBytes: 256 * MiB,
  maxEntries: 50_000,
  maxTotalBytes: 512 * MiB,
  maxEntryBytes: 256 * MiB,
  maxPathComponents: 256,
  maxRatio: 200,
};

/** Below this many extracted bytes the ratio is not judged (tiny archives of text compress well). */
export const RATIO_FLOOR_BYTES = MiB;

export function resolveLimits(limits: SkillArchiveLimits = {}): Required<SkillArchiveLimits> {
  const out = { ...DEFAULT_SKILL_ARCHIVE_LIMITS };
  for (const key of Object.keys(out) as (keyof SkillArchiveLimits)[]) {
    const v = limits[key];
    if (v !== undefined) {
      if (!Number.isFinite(v) || v <= 0) throw new AppError('validation', `Archive limit ${key} must be a positive number.`, { details: { [key]: v } });
      out[key] = v;
    }
  }
  out.maxEntryBytes = Math.min(out.maxEntryBytes, out.maxTotalBytes);
  return out;
}

/** An ExtractSink that refuses everything a skill archive may not contain. */
export class SkillArchiveSink extends ExtractSink {
  private extracted = 0;

  constructor(
    destDir: string,
    private readonly policy: Required<SkillArchiveLimits>,
    /** Size of the archive file: the denominator of the compression ratio. */
    private readonly archiveBytes: number,
    signal?: AbortSignal,
  ) {
    super(destDir, { maxEntries: policy.maxEntries, maxTotalBytes: policy.maxTotalBytes, maxEntryBytes: policy.maxEntryBytes }, signal);
  }

  /** Bytes of file content written so far. */
  get extractedBytes(): number {
    return this.extracted;
  }

  override admit(rawName: string): string {
    const p = super.admit(rawName);
    if (p !== '' && p.split('/').length > this.policy.maxPathComponents) {
      throw unsafe(`Archive entry ${JSON.stringify(p.slice(0, 80) + '…')} has more than ${this.policy.maxPathComponents} path components.`, rawName);
    }
    return p;
  }

  override checkDeclared(name: string, size: number, totalSoFar?: number): void {
    super.checkDeclared(name, size, totalSoFar);
    this.checkRatio((totalSoFar ?? this.extracted) + size, name);
  }

  override addLink(p: string, _target: string, hard: boolean): void {
    throw unsafe(`Archive entry ${JSON.stringify(p)} is a ${hard ? 'hard link' : 'symbolic link'}; skill archives may hold only regular files and folders.`, p);
  }

  override addSkipped(p: string, reason: string): void {
    throw unsafe(`Archive entry ${JSON.stringify(p)} is not a regular file or folder (${reason}); skill archives may hold only regular files and folders.`, p);
  }

  override addFile(p: string, rawMode: number, declared: number | undefined, data: AsyncIterable<Buffer | Uint8Array>) {
    return super.addFile(p, rawMode, declared, this.counted(p, data));
  }

  private async *counted(p: string, data: AsyncIterable<Buffer | Uint8Array>): AsyncGenerator<Buffer | Uint8Array> {
    for await (const chunk of data) {
      this.extracted += chunk.length;
      this.checkRatio(this.extracted, p);
      yield chunk;
    }
  }

  private checkRatio(total: number, entry: string): void {
    if (total <= RATIO_FLOOR_BYTES) return;
    const ratio = total / Math.max(1, this.archiveBytes);
    if (ratio > this.policy.maxRatio) {
      throw tooLarge(
        `The archive inflates to more than ${this.policy.maxRatio} times its own size (${total} bytes from a ${this.archiveBytes} byte file at ${JSON.stringify(entry)}): refused as a compression bomb.`,
        { entry, extractedBytes: total, archiveBytes: this.archiveBytes, maxRatio: this.policy.maxRatio },
      );
    }
  }
}
