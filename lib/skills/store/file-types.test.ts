import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { classifyBytes, FileSniffer } from './file-types';

/** Feeds `buf` in chunks of `size` bytes, stopping when the sniffer knows enough. */
function sniff(buf: Buffer, size: number) {
  const s = new FileSniffer();
  let fed = 0;
  for (let off = 0; off < buf.length && s.wantsMore; off += size) {
    s.push(buf.subarray(off, off + size));
    fed = Math.min(buf.length, off + size);
  }
  return { ...s.result(), fed };
}

const ELF = fs.readFileSync('/bin/true');

describe('the file classifier', () => {
  it('names a real ELF executable, whole or fed a byte at a time (the signature beats the NUL bytes after it)', () => {
    expect(ELF.subarray(0, 4).toString('latin1')).toBe('\x7fELF');
    expect(classifyBytes(ELF)).toEqual({ kind: 'executable', what: 'an ELF executable or library' });
    const bytewise = sniff(ELF, 1);
    expect(bytewise.kind).toBe('executable');
    expect(bytewise.what).toMatch(/ELF/);
    // It stops reading once the 512-byte head is judged.
    expect(bytewise.fed).toBe(512);
  });

  it('refuses other executables and archives by their signatures', () => {
    const pe = Buffer.concat([Buffer.from('MZ'), Buffer.alloc(62), Buffer.from('PE')]);
    expect(classifyBytes(pe)).toMatchObject({ kind: 'executable', what: expect.stringMatching(/PE/) });
    expect(classifyBytes(Buffer.from([0xcf, 0xfa, 0xed, 0xfe, 7, 0, 0, 1]))).toMatchObject({ kind: 'executable', what: expect.stringMatching(/Mach-O/) });
    expect(classifyBytes(Buffer.from([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0]))).toMatchObject({ kind: 'executable', what: expect.stringMatching(/WebAssembly/) });
    expect(classifyBytes(Buffer.from('PK\x03\x04\x14\0\0\0', 'latin1'))).toMatchObject({ kind: 'binary', what: 'a zip archive' });
    expect(classifyBytes(Buffer.from([0x1f, 0x8b, 8, 0]))).toMatchObject({ kind: 'binary', what: 'gzip-compressed data' });
    const tar = Buffer.alloc(1024, 0x61);
    tar.write('ustar', 257, 'latin1');
    expect(classifyBytes(tar)).toMatchObject({ kind: 'binary', what: 'a tar archive' });
    expect(classifyBytes(Buffer.from('%PDF-1.7\n%\xe2\xe3\n', 'latin1'))).toMatchObject({ kind: 'binary', what: 'a PDF document' });
    expect(classifyBytes(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]))).toMatchObject({ what: 'a PNG image' });
    expect(classifyBytes(Buffer.from('\xff\xfeh\0i\0', 'latin1'))).toMatchObject({ kind: 'binary', what: expect.stringMatching(/UTF-16/) });
  });

  it('is not fooled by text that starts like a signature', () => {
    expect(classifyBytes(Buffer.from('MZ is the magic of DOS executables.\n'))).toEqual({ kind: 'text' });
    expect(classifyBytes(Buffer.from('BZh9 is how bzip2 starts\n'))).toEqual({ kind: 'text' });
  });

  it('calls a file with a NUL byte binary, wherever the NUL is, and says where', () => {
    expect(classifyBytes(Buffer.from('# Title\n\0more'))).toEqual({ kind: 'binary', what: 'binary data (a NUL byte at offset 8)' });
    const big = Buffer.alloc(3 * 1024 * 1024 + 5, 'Run scripts/forecast.sh <city> and read notes.md.\n');
    big[big.length - 1] = 0;
    const r = sniff(big, 64 * 1024);
    expect(r).toMatchObject({ kind: 'binary', what: `binary data (a NUL byte at offset ${big.length - 1})` });
  });

  it('reads a huge text file to its end in chunks and calls it text', () => {
    const huge = Buffer.alloc(8 * 1024 * 1024, 'línea de texto — ✓\n');
    // The fill cuts the last character short: make it end on a whole one.
    const whole = huge.subarray(0, huge.lastIndexOf(0x0a) + 1);
    const r = sniff(whole, 64 * 1024);
    expect(r).toEqual({ kind: 'text', fed: whole.length });
    // A character split across two chunks is still text.
    const euro = Buffer.from('price: 5 €\n');
    expect(sniff(euro, 10).kind).toBe('text');
    expect(euro.length).toBeGreaterThan(10);
  });

  it('wants UTF-8: Latin-1 bytes or a cut-off character are not text', () => {
    expect(classifyBytes(Buffer.from('caf\xe9 au lait\n', 'latin1'))).toEqual({ kind: 'binary', what: 'not UTF-8 text' });
    expect(classifyBytes(Buffer.from('ends in \xe2\x82', 'latin1')).what).toMatch(/ends inside a character/);
    expect(classifyBytes(Buffer.from('\ufeff# with a BOM\n'))).toEqual({ kind: 'text' });
  });

  it('allows tabs, CRLF, form feeds and colour escapes, but not a share of other control characters', () => {
    expect(classifyBytes(Buffer.from('a\tb\r\n\x1b[31mred\x1b[0m\f\n'))).toEqual({ kind: 'text' });
    const noisy = Buffer.from(Array.from({ length: 200 }, (_, i) => (i % 10 === 0 ? 0x01 : 0x61)));
    expect(classifyBytes(noisy)).toEqual({ kind: 'binary', what: 'binary data (20 control characters in 200 bytes)' });
    expect(classifyBytes(Buffer.alloc(0))).toEqual({ kind: 'text' });
  });
});
