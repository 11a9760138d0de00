// The one zip writer of the tests (yazl): well-formed archives for wheels, fake registries and
// imports. Archives with records no archiver writes (lying sizes or CRCs, mismatched names, raw
// name bytes) come from the byte-level builder in lib/skills/store/archive-corpus.fixtures.ts.
import yazl from 'yazl';

export interface ZipEntry {
  /** Forward slashes; a name ending in `/` is a folder. */
  name: string;
  data?: string | Buffer;
  /** Unix st_mode, e.g. 0o100755 or 0o120777 for a symlink (its data is the target). Default 0o100644. */
  mode?: number;
  /** Store instead of deflate. */
  store?: boolean;
}

/** A fixed stamp, so the same entries give the same bytes. */
const MTIME = new Date(2024, 0, 1);

/** A zip of `entries` in the given order; a plain object is taken as name → data, sorted by name. */
export function zipBuffer(entries: readonly ZipEntry[] | Record<string, string | Buffer>): Promise<Buffer> {
  const list: readonly ZipEntry[] = Array.isArray(entries)
    ? entries
    : Object.keys(entries)
        .sort()
        .map((name) => ({ name, data: (entries as Record<string, string | Buffer>)[name] }));
  const zip = new yazl.ZipFile();
  for (const e of list) {
    if (e.name.endsWith('/')) zip.addEmptyDirectory(e.name, { mtime: MTIME, mode: e.mode ?? 0o40755 });
    else {
      const data = Buffer.isBuffer(e.data) ? e.data : Buffer.from(e.data ?? '', 'utf8');
      zip.addBuffer(data, e.name, { mtime: MTIME, mode: e.mode ?? 0o100644, compress: !e.store });
    }
  }
  zip.end();
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    zip.outputStream.on('data', (c: Buffer) => chunks.push(c));
    zip.outputStream.on('error', reject);
    zip.outputStream.on('end', () => resolve(Buffer.concat(chunks)));
  });
}
