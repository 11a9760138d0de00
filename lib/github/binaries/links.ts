/**
 * Resolving archive links (symlinks, hardlinks) to regular files within the archive. Pure.
 */
import { dirSegments, normalizeArchivePath } from './glob';
import type { ArchiveEntry, SkippedEntry } from './types';

const MAX_LINK_HOPS = 8;

export interface Resolved<E extends ArchiveEntry> {
  /** The name-bearing entry (the link itself, or the file). */
  via: E;
  path: string;
  /** The regular file it resolves to, or null with a reason. */
  file: E | null;
  reason?: string;
}

export function resolveLinks<E extends ArchiveEntry>(entries: readonly E[]): { items: Resolved<E>[]; skipped: SkippedEntry[] } {
  const byPath = new Map<string, E>();
  const skipped: SkippedEntry[] = [];
  const norm: { e: E; path: string }[] = [];
  for (const e of entries) {
    const p = normalizeArchivePath(e.path);
    if (p === null) {
      skipped.push({ path: e.path, reason: 'unsafe path' });
      continue;
    }
    if (!byPath.has(p)) byPath.set(p, e);
    norm.push({ e, path: p });
  }
  const resolve = (start: E, startPath: string): { file: E | null; reason?: string } => {
    let cur = start;
    let curPath = startPath;
    for (let hop = 0; hop <= MAX_LINK_HOPS; hop++) {
      if (cur.type === 'file') return { file: cur };
      if (cur.type !== 'symlink' && cur.type !== 'hardlink')
        return { file: null, reason: `link target is a ${cur.type === 'dir' ? 'directory' : 'special file'}` };
      const t = cur.linkTarget ?? '';
      if (t === '' || t.startsWith('/')) return { file: null, reason: `link points outside the archive (${t || 'empty target'})` };
      const dir = dirSegments(curPath);
      const joined = cur.type === 'symlink' ? [...dir, ...t.split('/')] : t.split('/');
      const stack: string[] = [];
      for (const seg of joined) {
        if (seg === '' || seg === '.') continue;
        if (seg === '..') {
          if (stack.length === 0) return { file: null, reason: `link points outside the archive (${t})` };
          stack.pop();
        } else stack.push(seg);
      }
      const next = stack.join('/');
      const target = byPath.get(next);
      if (!target) return { file: null, reason: `link target ${next} is not in the archive` };
      cur = target;
      curPath = next;
    }
    return { file: null, reason: 'too many link hops (loop?)' };
  };
  const items: Resolved<E>[] = [];
  for (const { e, path } of norm) {
    if (e.type === 'dir') continue;
    if (e.type === 'other') {
      skipped.push({ path, reason: 'device, FIFO or socket entry' });
      continue;
    }
    const r = e.type === 'file' ? { file: e } : resolve(e, path);
    items.push({ via: e, path, file: r.file, reason: r.reason });
  }
  return { items, skipped };
}
