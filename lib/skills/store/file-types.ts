/**
 * What a file is, from its bytes: a native executable, an archive or other binary data, or text
 * (UTF-8 without NUL bytes and with hardly any control characters). Fed in chunks, so a file of any
 * size is judged in bounded memory; the extension plays no part here.
 */

export type FileKind = 'text' | 'executable' | 'binary';

export interface FileClass {
  kind: FileKind;
  /** What the content is when it is not text, e.g. "an ELF executable or library". */
  what?: string;
}

/** Bytes of the start of a file the signatures are read from (tar's ustar magic sits at 257). */
const HEAD = 512;

type Sig = { kind: Exclude<FileKind, 'text'>; what: string; test: (b: Buffer) => boolean };
const at = (b: Buffer, off: number, bytes: number[]) => b.length >= off + bytes.length && bytes.every((x, i) => b[off + i] === x);
const ascii = (s: string) => [...s].map((c) => c.charCodeAt(0));

const SIGNATURES: Sig[] = [
  { kind: 'executable', what: 'an ELF executable or library', test: (b) => at(b, 0, [0x7f, 0x45, 0x4c, 0x46]) },
  {
    kind: 'executable',
    what: 'a Mach-O executable',
    test: (b) => [0xfeedface, 0xfeedfacf, 0xcefaedfe, 0xcffaedfe].some((m) => b.length >= 4 && b.readUInt32BE(0) === m),
  },
  { kind: 'executable', what: 'a Mach-O universal binary or Java class file', test: (b) => at(b, 0, [0xca, 0xfe, 0xba, 0xbe]) },
  // "MZ" alone starts some words; a DOS/PE header has NUL bytes right after it.
  { kind: 'executable', what: 'a Windows (PE/DOS) executable', test: (b) => at(b, 0, ascii('MZ')) && b.subarray(0, 64).includes(0) },
  { kind: 'executable', what: 'a WebAssembly module', test: (b) => at(b, 0, [0x00, 0x61, 0x73, 0x6d]) },
  {
    kind: 'binary',
    what: 'a zip archive',
    test: (b) => at(b, 0, [0x50, 0x4b, 0x03, 0x04]) || at(b, 0, [0x50, 0x4b, 0x05, 0x06]) || at(b, 0, [0x50, 0x4b, 0x07, 0x08]),
  },
  { kind: 'binary', what: 'gzip-compressed data', test: (b) => at(b, 0, [0x1f, 0x8b]) },
  { kind: 'binary', what: 'bzip2-compressed data', test: (b) => at(b, 0, ascii('BZh')) && at(b, 4, [0x31, 0x41, 0x59, 0x26, 0x53, 0x59]) },
  { kind: 'binary', what: 'xz-compressed data', test: (b) => at(b, 0, [0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00]) },
  { kind: 'binary', what: 'zstd-compressed data', test: (b) => at(b, 0, [0x28, 0xb5, 0x2f, 0xfd]) },
  { kind: 'binary', what: 'a 7-Zip archive', test: (b) => at(b, 0, [0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c]) },
  { kind: 'binary', what: 'a RAR archive', test: (b) => at(b, 0, ascii('Rar!\x1a\x07')) },
  { kind: 'binary', what: 'a tar archive', test: (b) => at(b, 257, ascii('ustar')) },
  { kind: 'binary', what: 'an ar archive (static library or .deb)', test: (b) => at(b, 0, ascii('!<arch>\n')) },
  { kind: 'binary', what: 'a PDF document', test: (b) => at(b, 0, ascii('%PDF-')) },
  { kind: 'binary', what: 'a PNG image', test: (b) => at(b, 0, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]) },
  { kind: 'binary', what: 'a JPEG image', test: (b) => at(b, 0, [0xff, 0xd8, 0xff]) },
  { kind: 'binary', what: 'a GIF image', test: (b) => at(b, 0, ascii('GIF87a')) || at(b, 0, ascii('GIF89a')) },
  { kind: 'binary', what: 'an SQLite database', test: (b) => at(b, 0, [...ascii('SQLite format 3'), 0]) },
  { kind: 'binary', what: 'UTF-16 or UTF-32 text (only UTF-8 text counts as text)', test: (b) => at(b, 0, [0xff, 0xfe]) || at(b, 0, [0xfe, 0xff]) },
];

/** Control characters other than tab, newlines, form feed, backspace and escape (colour codes). */
function isControl(c: number): boolean {
  return (c < 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d && c !== 0x0c && c !== 0x0b && c !== 0x08 && c !== 0x1b) || c === 0x7f;
}

/** More than this share of control characters is not text. */
const MAX_CONTROL_SHARE = 0.01;

/** Judges one file fed chunk by chunk; `result()` after the last chunk. */
export class FileSniffer {
  private head: Buffer[] = [];
  private headLen = 0;
  private signature: FileClass | null | undefined;
  /** What the content showed that is not text; a signature, once the head is complete, says more. */
  private found: FileClass | null = null;
  private bytes = 0;
  private controls = 0;
  private readonly utf8 = new TextDecoder('utf-8', { fatal: true });

  /** False once the verdict is known: the caller may stop reading. */
  get wantsMore(): boolean {
    return !this.signature && !(this.found && this.signature === null);
  }

  push(chunk: Buffer): void {
    if (this.headLen < HEAD) {
      const part = chunk.subarray(0, HEAD - this.headLen);
      this.head.push(part);
      this.headLen += part.length;
      if (this.headLen >= HEAD) this.judgeHead();
    }
    if (this.signature || this.found) return;
    const nul = chunk.indexOf(0);
    if (nul >= 0) {
      this.found = { kind: 'binary', what: `binary data (a NUL byte at offset ${this.bytes + nul})` };
      return;
    }
    for (let i = 0; i < chunk.length; i++) if (isControl(chunk[i])) this.controls++;
    this.bytes += chunk.length;
    try {
      this.utf8.decode(chunk, { stream: true });
    } catch {
      this.found = { kind: 'binary', what: 'not UTF-8 text' };
    }
  }

  result(): FileClass {
    if (this.signature === undefined) this.judgeHead();
    if (this.signature) return this.signature;
    if (this.found) return this.found;
    try {
      this.utf8.decode();
    } catch {
      return { kind: 'binary', what: 'not UTF-8 text (it ends inside a character)' };
    }
    if (this.controls > this.bytes * MAX_CONTROL_SHARE)
      return { kind: 'binary', what: `binary data (${this.controls} control characters in ${this.bytes} bytes)` };
    return { kind: 'text' };
  }

  private judgeHead(): void {
    const head = Buffer.concat(this.head);
    const sig = SIGNATURES.find((s) => s.test(head));
    this.signature = sig ? { kind: sig.kind, what: sig.what } : null;
  }
}

/** The class of a whole buffer. */
export function classifyBytes(buf: Buffer): FileClass {
  const s = new FileSniffer();
  s.push(buf);
  return s.result();
}
