import type { InstallOut } from '@/lib/installs/schema';

/** 0 B, 512 B, 1.5 KB, 230 MB, 1.2 GB (powers of 1024, one decimal under 10). */
export function humanBytes(n: number | null | undefined): string {
  if (n === null || n === undefined || !Number.isFinite(n)) return 'unknown';
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let v = Math.max(0, n);
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${i === 0 || v >= 10 ? Math.round(v) : v.toFixed(1)} ${units[i]}`;
}

/** A skill version as people read it: store versions are already "v3"; a bare "1.2.0" gets its "v". */
export const ver = (v: string): string => (/^v\d/.test(v) ? v : `v${v}`);

/**
 * What agents get when it is not the record's own version: "serving v1 while v2 installs" or
 * "serving v1; v2 failed". Null when the served version is the record's, or nothing is served.
 */
export function servedNote(r: Pick<InstallOut, 'state' | 'version' | 'served'>): string | null {
  const s = r.served;
  if (!s || (r.state !== 'installing' && r.state !== 'failed')) return null;
  return r.state === 'installing' ? `serving ${ver(s.version)} while ${ver(r.version)} installs` : `serving ${ver(s.version)}; ${ver(r.version)} failed`;
}
