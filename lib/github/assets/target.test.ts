import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isAppError } from '../../core/errors';
import { detectTarget, formatTarget, hostTarget, parseTarget } from './target';

let tmp: string;

/** A minimal little-endian ELF64 executable header with one PT_INTERP program header naming `interp`. */
function elfWithInterp(interp: string): Buffer {
  const str = Buffer.from(`${interp}\0`, 'latin1');
  const buf = Buffer.alloc(64 + 56 + str.length);
  buf.writeUInt32BE(0x7f454c46, 0);
  buf[4] = 2; // ELFCLASS64
  buf[5] = 1; // little-endian
  buf[6] = 1;
  buf.writeUInt16LE(2, 16); // ET_EXEC
  buf.writeUInt16LE(62, 18); // EM_X86_64
  buf.writeBigUInt64LE(64n, 32); // e_phoff
  buf.writeUInt16LE(56, 54); // e_phentsize
  buf.writeUInt16LE(1, 56); // e_phnum
  buf.writeUInt32LE(3, 64); // PT_INTERP
  buf.writeBigUInt64LE(120n, 64 + 8); // p_offset
  buf.writeBigUInt64LE(BigInt(str.length), 64 + 32); // p_filesz
  str.copy(buf, 120);
  return buf;
}

beforeAll(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'skilldock-target-'));
  fs.writeFileSync(path.join(tmp, 'musl-sh'), elfWithInterp('/lib/ld-musl-x86_64.so.1'));
  fs.writeFileSync(path.join(tmp, 'alpine-release'), '3.20.0\n');
});
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe('hostTarget on this machine (Debian, linux/amd64/glibc)', () => {
  it('detects linux/amd64/glibc and the loader of /bin/sh', async () => {
    const t = await hostTarget();
    expect(t).toEqual({ os: 'linux', arch: 'amd64', libc: 'glibc', loader: '/lib64/ld-linux-x86-64.so.2' });
    expect(formatTarget(t)).toBe('linux/amd64/glibc');
  });

  it('is memoised: the same promise every time', () => {
    expect(hostTarget()).toBe(hostTarget());
  });
});

describe('detectTarget', () => {
  it('reads musl from the PT_INTERP of the probed shell', async () => {
    const t = await detectTarget({ shell: path.join(tmp, 'musl-sh'), alpineReleaseFile: path.join(tmp, 'absent') });
    expect(t).toEqual({ os: 'linux', arch: 'amd64', libc: 'musl', loader: '/lib/ld-musl-x86_64.so.1' });
  });

  it('an /etc/alpine-release file means musl', async () => {
    const t = await detectTarget({ alpineReleaseFile: path.join(tmp, 'alpine-release') });
    expect(t.libc).toBe('musl');
  });

  it.each([
    ['x64', 'amd64'],
    ['arm64', 'arm64'],
    ['ia32', '386'],
    ['arm', 'arm'],
  ] as const)('maps Node arch %s to %s', async (arch, expected) => {
    expect((await detectTarget({ platform: 'darwin', arch })).arch).toBe(expected);
  });

  it('darwin and windows have no libc', async () => {
    expect(await detectTarget({ platform: 'win32', arch: 'x64' })).toEqual({ os: 'windows', arch: 'amd64', libc: 'unknown' });
    expect(await detectTarget({ platform: 'darwin', arch: 'arm64' })).toEqual({ os: 'darwin', arch: 'arm64', libc: 'unknown' });
  });

  it('an unsupported OS or arch is UNAVAILABLE', async () => {
    for (const o of [{ platform: 'freebsd' as const }, { arch: 'riscv64' as const }]) {
      const e = await detectTarget(o).catch((err: unknown) => err);
      expect(isAppError(e) && e.code).toBe('unavailable');
    }
  });
});

describe('parseTarget', () => {
  it.each([
    ['linux/amd64/musl', { os: 'linux', arch: 'amd64', libc: 'musl' }],
    ['linux/arm/glibc', { os: 'linux', arch: 'arm', libc: 'glibc' }],
    ['linux/arm64', { os: 'linux', arch: 'arm64', libc: 'unknown' }],
    [' darwin/arm64 ', { os: 'darwin', arch: 'arm64', libc: 'unknown' }],
    ['windows/386', { os: 'windows', arch: '386', libc: 'unknown' }],
  ])('%s', (text, expected) => {
    expect(parseTarget(text)).toEqual(expected);
  });

  it.each(['linux', 'linux/x86_64', 'Linux/amd64', 'darwin/arm64/musl', 'linux/amd64/gnu', 'linux/amd64/musl/x', ''])('rejects %j', (text) => {
    let caught: unknown;
    try {
      parseTarget(text);
    } catch (e) {
      caught = e;
    }
    expect(isAppError(caught) && caught.code).toBe('validation');
  });

  it('formatTarget is its inverse', () => {
    for (const s of ['linux/386/unknown', 'darwin/amd64', 'windows/arm64']) expect(formatTarget(parseTarget(s))).toBe(s);
  });
});
