import { closeSync, ftruncateSync, mkdtempSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type ElfInfo, hasShebang, isElf, libcFromInterp, parseShebang, readElfFile, readElfInfo, validateElf } from './elf';
import { expectCode } from './elf.fixtures';

// ---- crafted ELF files --------------------------------------------------------------------

interface Craft {
  cls?: 32 | 64;
  endian?: 'le' | 'be';
  type?: number;
  machine?: number;
  entry?: bigint;
  interp?: string | null;
  /** Extra program headers before PT_INTERP (PT_LOAD). */
  extraPhdrs?: number;
  phnumOverride?: number;
  phoffOverride?: bigint;
  phentsizeOverride?: number;
  interpOffsetOverride?: bigint;
  interpSizeOverride?: bigint;
  noNul?: boolean;
}

function craftElf(c: Craft = {}): Buffer {
  const cls = c.cls ?? 64;
  const le = (c.endian ?? 'le') === 'le';
  const ehsize = cls === 64 ? 64 : 52;
  const phentsize = cls === 64 ? 56 : 32;
  const interp = c.interp === undefined ? '/lib64/ld-linux-x86-64.so.2' : c.interp;
  const phdrs: { type: number; offset: bigint; size: bigint }[] = [];
  for (let i = 0; i < (c.extraPhdrs ?? 1); i++) phdrs.push({ type: 1, offset: 0n, size: 0n });
  const phoff = ehsize;
  const interpOffset = phoff + (phdrs.length + (interp ? 1 : 0)) * phentsize;
  const interpBytes = interp ? Buffer.concat([Buffer.from(interp, 'latin1'), c.noNul ? Buffer.alloc(0) : Buffer.from([0])]) : Buffer.alloc(0);
  if (interp) {
    phdrs.unshift({
      type: 3,
      offset: c.interpOffsetOverride ?? BigInt(interpOffset),
      size: c.interpSizeOverride ?? BigInt(interpBytes.length),
    });
  }
  const buf = Buffer.alloc(interpOffset + interpBytes.length + 16);
  buf.set([0x7f, 0x45, 0x4c, 0x46, cls === 64 ? 2 : 1, le ? 1 : 2, 1], 0);
  const w16 = (o: number, v: number) => (le ? buf.writeUInt16LE(v, o) : buf.writeUInt16BE(v, o));
  const w32 = (o: number, v: number) => (le ? buf.writeUInt32LE(v, o) : buf.writeUInt32BE(v, o));
  const w64 = (o: number, v: bigint) => (le ? buf.writeBigUInt64LE(v, o) : buf.writeBigUInt64BE(v, o));
  w16(16, c.type ?? 3);
  w16(18, c.machine ?? 62);
  w32(20, 1);
  const entry = c.entry ?? 0x1040n;
  const phnum = c.phnumOverride ?? phdrs.length;
  const pe = c.phentsizeOverride ?? phentsize;
  if (cls === 64) {
    w64(24, entry);
    w64(32, c.phoffOverride ?? BigInt(phoff));
    w16(52, ehsize);
    w16(54, pe);
    w16(56, phnum);
  } else {
    w32(24, Number(entry));
    w32(28, Number(c.phoffOverride ?? BigInt(phoff)));
    w16(40, ehsize);
    w16(42, pe);
    w16(44, phnum);
  }
  phdrs.forEach((p, i) => {
    const o = phoff + i * phentsize;
    w32(o, p.type);
    if (cls === 64) {
      w64(o + 8, p.offset);
      w64(o + 32, p.size);
      w64(o + 40, p.size);
    } else {
      w32(o + 4, Number(p.offset));
      w32(o + 16, Number(p.size));
      w32(o + 20, Number(p.size));
    }
  });
  interpBytes.copy(buf, interpOffset);
  return buf;
}

describe('readElfInfo on crafted headers', () => {
  it('musl x86_64 PIE', () => {
    const info = readElfInfo(craftElf({ interp: '/lib/ld-musl-x86_64.so.1' }));
    expect(info).toMatchObject({ class: 64, endian: 'le', type: 'dyn', machineName: 'amd64', interp: '/lib/ld-musl-x86_64.so.1', libc: 'musl' });
    expect(validateElf(info, { arch: 'amd64', libc: 'musl' }).libc).toBe('musl');
    // musl on glibc: accepted only when the loader exists in the target
    expect(validateElf(info, { arch: 'amd64', libc: 'glibc' }, { interpreterExists: (p) => p === '/lib/ld-musl-x86_64.so.1' }).libc).toBe('musl');
    const e = expectCode(() => validateElf(info, { arch: 'amd64', libc: 'glibc' }, { interpreterExists: () => false }), 'libc_mismatch');
    expect(e.details).toMatchObject({ interp: '/lib/ld-musl-x86_64.so.1' });
    expectCode(() => validateElf(info, { arch: 'amd64', libc: 'glibc' }), 'libc_mismatch');
  });

  it('ELF32 ARM (armhf glibc), ET_EXEC', () => {
    const info = readElfInfo(craftElf({ cls: 32, machine: 40, type: 2, entry: 0x10400n, interp: '/lib/ld-linux-armhf.so.3', extraPhdrs: 3 }));
    expect(info).toMatchObject({ class: 32, endian: 'le', type: 'exec', machine: 40, machineName: 'arm', entry: 0x10400n, libc: 'glibc' });
    expect(validateElf(info, { arch: 'arm', libc: 'glibc' }).interp).toBe('/lib/ld-linux-armhf.so.3');
    expectCode(() => validateElf(info, { arch: 'amd64', libc: 'glibc' }), 'wrong_architecture');
  });

  it('ELF32 i386 static', () => {
    const info = readElfInfo(craftElf({ cls: 32, machine: 3, type: 2, interp: null }));
    expect(info).toMatchObject({ class: 32, machineName: '386', interp: null, libc: 'static' });
    expect(validateElf(info, { arch: '386', libc: 'musl' }).libc).toBe('static');
  });

  it('aarch64 musl and glibc', () => {
    const m = readElfInfo(craftElf({ machine: 183, interp: '/lib/ld-musl-aarch64.so.1' }));
    expect(m).toMatchObject({ machineName: 'arm64', libc: 'musl' });
    const g = readElfInfo(craftElf({ machine: 183, interp: '/lib/ld-linux-aarch64.so.1' }));
    expect(g).toMatchObject({ machineName: 'arm64', libc: 'glibc' });
    expect(validateElf(g, { arch: 'arm64', libc: 'glibc' }).arch).toBe('arm64');
  });

  it('big-endian ELF64 and ELF32 parse the same fields; validation rejects big-endian', () => {
    const be64 = readElfInfo(craftElf({ endian: 'be', machine: 22, interp: '/lib/ld64.so.1', type: 2, entry: 0x1000n }));
    expect(be64).toMatchObject({ class: 64, endian: 'be', machineName: 's390x', interp: '/lib/ld64.so.1', libc: 'glibc', type: 'exec', entry: 0x1000n });
    const be32 = readElfInfo(craftElf({ cls: 32, endian: 'be', machine: 8, interp: '/lib/ld.so.1', extraPhdrs: 2 }));
    expect(be32).toMatchObject({ class: 32, endian: 'be', machineName: 'mips', interp: '/lib/ld.so.1', libc: 'unknown' });
    // big-endian aarch64 has the right machine number but the wrong byte order
    const beArm = readElfInfo(craftElf({ endian: 'be', machine: 183 }));
    const e = expectCode(() => validateElf(beArm, { arch: 'arm64', libc: 'glibc' }), 'wrong_architecture');
    expect(e.details).toMatchObject({ field: 'endian' });
  });

  it('x32 (ELF32 with EM_X86_64) is the wrong class for amd64', () => {
    const info = readElfInfo(craftElf({ cls: 32, machine: 62 }));
    expect(expectCode(() => validateElf(info, { arch: 'amd64', libc: 'glibc' }), 'wrong_architecture').details).toMatchObject({
      field: 'class',
      expected: 64,
      found: 32,
    });
  });

  it('unknown machine names and non-executables', () => {
    expect(readElfInfo(craftElf({ machine: 9999 })).machineName).toBe('em_9999');
    const rel = readElfInfo(craftElf({ type: 1, interp: null }));
    expect(rel.type).toBe('rel');
    expectCode(() => validateElf(rel, { arch: 'amd64', libc: 'glibc' }), 'wrong_architecture');
    const noEntry = readElfInfo(craftElf({ entry: 0n }));
    expectCode(() => validateElf(noEntry, { arch: 'amd64', libc: 'glibc' }), 'wrong_architecture');
    expectCode(() => validateElf(readElfInfo(craftElf()), { arch: 'riscv64', libc: 'glibc' }), 'wrong_architecture');
  });

  it('an interpreter missing in the target is libc_mismatch even for glibc on glibc', () => {
    const info = readElfInfo(craftElf({ interp: '/lib/ld-linux-x86-64.so.2' }));
    const e = expectCode(() => validateElf(info, { arch: 'amd64', libc: 'glibc' }, { interpreterExists: () => false }), 'libc_mismatch');
    expect(e.hint).toMatch(/musl or statically linked/);
    expect(e.message).toContain('/lib/ld-linux-x86-64.so.2');
  });

  it('zero program headers = static', () => {
    const b = craftElf({ interp: null, extraPhdrs: 0 });
    expect(readElfInfo(b)).toMatchObject({ phnum: 0, interp: null, libc: 'static' });
  });
});

describe('hostile or truncated headers throw clean errors', () => {
  const bad: [string, () => Buffer][] = [
    ['empty', () => Buffer.alloc(0)],
    ['3 bytes', () => Buffer.from([0x7f, 0x45, 0x4c])],
    ['magic only', () => Buffer.from([0x7f, 0x45, 0x4c, 0x46])],
    ['not ELF (PE)', () => Buffer.from('MZ\x90\x00' + '\0'.repeat(100), 'latin1')],
    ['truncated ELF64 header', () => craftElf().subarray(0, 40)],
    ['truncated ELF32 header', () => craftElf({ cls: 32 }).subarray(0, 50)],
    [
      'bad class',
      () => {
        const b = craftElf();
        b[4] = 3;
        return b;
      },
    ],
    [
      'bad data',
      () => {
        const b = craftElf();
        b[5] = 0;
        return b;
      },
    ],
    [
      'bad version',
      () => {
        const b = craftElf();
        b[6] = 2;
        return b;
      },
    ],
    ['phdr table past the end', () => craftElf({ phoffOverride: 1_000_000n })],
    ['phdr table offset beyond 2^53', () => craftElf({ phoffOverride: 0xffff_ffff_ffff_fff0n })],
    ['phdr table overlapping the header', () => craftElf({ phoffOverride: 8n })],
    ['phdr table cut short', () => craftElf({ extraPhdrs: 4 }).subarray(0, 64 + 2 * 56)],
    ['absurd phnum (65534)', () => craftElf({ phnumOverride: 65534 })],
    ['PN_XNUM', () => craftElf({ phnumOverride: 0xffff })],
    ['phnum larger than the file holds', () => craftElf({ phnumOverride: 200 })],
    ['phentsize too small', () => craftElf({ phentsizeOverride: 8 })],
    ['phentsize zero (would loop on one entry)', () => craftElf({ phentsizeOverride: 0 })],
    ['ELF32 phentsize too small', () => craftElf({ cls: 32, phentsizeOverride: 16 })],
    ['PT_INTERP past the end', () => craftElf({ interpOffsetOverride: 1_000_000n })],
    ['PT_INTERP offset beyond 2^53', () => craftElf({ interpOffsetOverride: 0xffff_ffff_ffff_0000n })],
    ['PT_INTERP huge size', () => craftElf({ interpSizeOverride: 0xffff_ffffn })],
    ['PT_INTERP size 0', () => craftElf({ interpSizeOverride: 0n })],
    ['PT_INTERP without NUL', () => craftElf({ noNul: true })],
    ['PT_INTERP relative path', () => craftElf({ interp: 'ld.so' })],
    ['PT_INTERP with control bytes', () => craftElf({ interp: '/lib/ld\x01.so' })],
    ['ELF32 PT_INTERP past the end', () => craftElf({ cls: 32, interpOffsetOverride: 0xffff_0000n })],
  ];
  it.each(bad)('%s', (_name, make) => {
    const e = expectCode(() => readElfInfo(make()), 'wrong_architecture');
    expect(e.name).toBe('ElfFormatError');
    expect(e.details?.reason).toEqual(expect.any(String));
  });

  const dir = mkdtempSync(path.join(tmpdir(), 'elf-test-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('readElfFile: truncated file, hostile phnum and a sparse 1 GiB file read in bounded reads', async () => {
    const t = path.join(dir, 'trunc');
    writeFileSync(t, craftElf().subarray(0, 100));
    await expect(readElfFile(t)).rejects.toMatchObject({ code: 'wrong_architecture' });
    const h = path.join(dir, 'hostile');
    writeFileSync(h, craftElf({ phnumOverride: 60000 }));
    await expect(readElfFile(h)).rejects.toMatchObject({ details: { reason: expect.stringMatching(/too many/) } });
    // a valid header followed by 1 GiB of sparse zeros: only the headers are read
    const big = path.join(dir, 'big');
    writeFileSync(big, craftElf({ interp: '/lib/ld-musl-x86_64.so.1' }));
    const fd = openSync(big, 'r+');
    ftruncateSync(fd, 1 << 30);
    closeSync(fd);
    const info: ElfInfo = await readElfFile(big);
    expect(info.libc).toBe('musl');
    const empty = path.join(dir, 'empty');
    writeFileSync(empty, '');
    await expect(readElfFile(empty)).rejects.toMatchObject({ code: 'wrong_architecture' });
  });
});

describe('isElf / shebang / libcFromInterp', () => {
  it('isElf', () => {
    expect(isElf(craftElf())).toBe(true);
    expect(isElf(Buffer.from('#!/bin/sh\n'))).toBe(false);
    expect(isElf(Buffer.from([0x7f, 0x45]))).toBe(false);
  });

  it('shebangs', () => {
    expect(hasShebang(Buffer.from('#!/bin/sh\necho hi\n'))).toBe('/bin/sh');
    expect(parseShebang(Buffer.from('#!/usr/bin/env python3\r\nprint(1)'))).toEqual({ interpreter: '/usr/bin/env', arg: 'python3' });
    expect(parseShebang(Buffer.from('#! /bin/bash -e\n'))).toEqual({ interpreter: '/bin/bash', arg: '-e' });
    expect(hasShebang(Buffer.from('#!\n'))).toBeNull();
    expect(hasShebang(Buffer.from('#!bash\n'))).toBeNull();
    expect(hasShebang(Buffer.from('# comment\n'))).toBeNull();
    expect(hasShebang(craftElf())).toBeNull();
    expect(hasShebang(Buffer.from('#!/bin/sh\x00\x01garbage'))).toBeNull();
  });

  it('libcFromInterp covers every known loader', () => {
    for (const p of ['/lib/ld-musl-x86_64.so.1', '/lib/ld-musl-aarch64.so.1', '/lib/ld-musl-armhf.so.1', '/lib/ld-musl-i386.so.1'])
      expect(libcFromInterp(p)).toBe('musl');
    for (const p of ['/lib64/ld-linux-x86-64.so.2', '/lib/ld-linux-aarch64.so.1', '/lib/ld-linux-armhf.so.3', '/lib/ld-linux.so.2'])
      expect(libcFromInterp(p)).toBe('glibc');
    expect(libcFromInterp(null)).toBe('static');
    expect(libcFromInterp('/system/bin/linker64')).toBe('unknown');
  });
});
