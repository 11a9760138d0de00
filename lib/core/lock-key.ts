/**
 * An advisory-lock key for a name: FNV-1a, folded into [2^30, 2^31) so it stays clear of the small
 * fixed lock keys (migrations, job claims). Two names may share a key; they then only serialise.
 */
export function lockKeyOf(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return (h % 0x40000000) + 0x40000000;
}
