/**
 * What the scan of one file found, kept by the file's content, path and everything else its rules
 * read, so the same file met again (the same skill in several roots, a new version that changed one
 * file, vendored files shared by many skills) is not scanned again. Each thread keeps its own, bounded.
 */
import type { ScanFinding } from '../types';
import type { Spot } from './model';

export interface FileScan {
  findings: ScanFinding[];
  /** Hosts the file's scripts contact, first occurrence first (the skill-wide network rule reads them). */
  hosts: [string, Spot][];
}

export class FileScanMemo {
  private readonly kept = new Map<string, FileScan>();
  hits = 0;
  misses = 0;

  constructor(readonly maxEntries = 20_000) {}

  get(key: string): FileScan | undefined {
    const found = this.kept.get(key);
    if (!found) {
      this.misses++;
      return undefined;
    }
    this.hits++;
    // Least recently used goes first: a hit moves to the end.
    this.kept.delete(key);
    this.kept.set(key, found);
    return found;
  }

  set(key: string, scan: FileScan): void {
    this.kept.delete(key);
    this.kept.set(key, scan);
    if (this.kept.size > this.maxEntries) this.kept.delete(this.kept.keys().next().value as string);
  }

  clear(): void {
    this.kept.clear();
    this.hits = 0;
    this.misses = 0;
  }

  get size(): number {
    return this.kept.size;
  }
}

/** Everything a file's findings depend on: its bytes (by sha256), its path (language, findings' file), the env names the skill declares and the scanner's settings. */
export function fileScanKey(sha256: string, path: string, declaredEnv: ReadonlySet<string>, settings: string): string {
  return `${sha256}\u0000${path}\u0000${[...declaredEnv].sort().join(',')}\u0000${settings}`;
}
