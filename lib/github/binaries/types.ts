/**
 * Archive entry and binary-choice types.
 */

export type ArchiveEntryType = 'file' | 'symlink' | 'hardlink' | 'dir' | 'other';

export interface ArchiveEntry {
  /** Path inside the archive, `/`-separated (a leading `./` is ignored). */
  path: string;
  mode: number;
  size: number;
  type: ArchiveEntryType;
  /** Symlink: target relative to the link's directory. Hardlink: path from the archive root. */
  linkTarget?: string;
  /** First bytes of a regular file (≥ 64 for ELF magic / shebang); absent = unknown. */
  head?: Buffer;
}

export type BinaryKind = 'elf' | 'script' | 'unknown';

/** A chosen regular-file entry, plus the name it is installed under. */
export type ChosenBinary<E extends ArchiveEntry = ArchiveEntry> = E & {
  /** Basename to install as (the link's name when chosen through a link; `.AppImage` kept). */
  installName: string;
  /** The archive link (symlink or hardlink) this file was reached through, if any. */
  linkPath?: string;
  kind: BinaryKind;
  /** Which rule chose it. */
  rule: 'binary_path' | 'direct' | 'candidate';
};

export interface SkippedEntry {
  path: string;
  reason: string;
}

export interface ChooseBinariesOptions {
  /** `binaryName` override, else the repo name. */
  toolName: string;
  /** Glob (`*`, `**`, `?`) from the package config; with a `/` it matches the whole path, else the basename. */
  binaryPath?: string;
  /** Target OS; ELF checks apply to `linux` only. */
  os: string;
}

export interface ChooseBinariesResult<E extends ArchiveEntry = ArchiveEntry> {
  chosen: ChosenBinary<E>[];
  skipped: SkippedEntry[];
}
