/**
 * A skill's files as one block of bytes for the scanner's worker: posting each Buffer would
 * serialise it separately, and a small one together with the whole shared pool it is a slice of.
 */

/** File i is `bytes[ends[i - 1] ?? 0, ends[i])`. */
export interface PackedFiles {
  paths: string[];
  /** Each file's sha256 where the caller gave it. */
  sha256s: (string | undefined)[];
  ends: number[];
  bytes: Uint8Array;
}

/** Copies the files' bytes into one new block (the caller's Buffers stay as they are); `buffer` is that block, to move. */
export function packFiles(files: readonly { path: string; content: Uint8Array; sha256?: string }[]): { packed: PackedFiles; buffer: ArrayBuffer } {
  const ends: number[] = [];
  let total = 0;
  for (const f of files) ends.push((total += f.content.byteLength));
  const buffer = new ArrayBuffer(total);
  const bytes = new Uint8Array(buffer);
  files.forEach((f, i) => bytes.set(f.content, i === 0 ? 0 : ends[i - 1]));
  return { packed: { paths: files.map((f) => f.path), sha256s: files.map((f) => f.sha256), ends, bytes }, buffer };
}

/** The files again, each a Buffer view into the block (no copy). */
export function unpackFiles({ paths, sha256s, ends, bytes }: PackedFiles): { path: string; content: Buffer; sha256?: string }[] {
  return paths.map((path, i) => {
    const start = i === 0 ? 0 : ends[i - 1];
    const content = Buffer.from(bytes.buffer, bytes.byteOffset + start, ends[i] - start);
    return sha256s[i] ? { path, content, sha256: sha256s[i] } : { path, content };
  });
}
