// ELF reading on real binaries of this machine, checked against readelf.
import { execFileSync } from 'node:child_process';
import { closeSync, existsSync, openSync, readSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readElfFile, readElfInfo, validateElf } from './elf';
import { expectCode } from './elf.fixtures';

function readelfInterp(p: string): string | null | undefined {
  try {
    const out = execFileSync('readelf', ['-lW', p], { encoding: 'utf8', maxBuffer: 4 << 20 });
    const m = /Requesting program interpreter: ([^\]]+)\]/.exec(out);
    return m ? m[1] : null;
  } catch {
    return undefined; // readelf not installed
  }
}

const isX64Linux = process.platform === 'linux' && process.arch === 'x64';

describe.runIf(isX64Linux)('readElfFile on real binaries of this machine', () => {
  const real = ['/bin/ls', '/usr/bin/env', process.execPath].filter((p) => existsSync(p));

  it.each(real)('%s is a 64-bit LE x86-64 glibc executable with the interpreter readelf reports', async (p) => {
    const info = await readElfFile(p);
    expect(info.class).toBe(64);
    expect(info.endian).toBe('le');
    expect(info.machine).toBe(62);
    expect(info.machineName).toBe('amd64');
    expect(['exec', 'dyn']).toContain(info.type);
    expect(info.entry).not.toBe(0n);
    const fromReadelf = readelfInterp(p);
    if (fromReadelf !== undefined) expect(info.interp).toBe(fromReadelf);
    expect(info.interp).toBe('/lib64/ld-linux-x86-64.so.2');
    expect(info.libc).toBe('glibc');
    expect(validateElf(info, { arch: 'amd64', libc: 'glibc' }, { interpreterExists: existsSync })).toEqual({
      arch: 'amd64',
      libc: 'glibc',
      interp: '/lib64/ld-linux-x86-64.so.2',
    });
  });

  it('readElfInfo on the first 4 KiB of /bin/ls gives the same result as readElfFile', async () => {
    const fd = openSync('/bin/ls', 'r');
    const b = Buffer.alloc(4096);
    readSync(fd, b, 0, 4096, 0);
    closeSync(fd);
    expect(readElfInfo(b)).toEqual(await readElfFile('/bin/ls'));
  });

  it('a glibc binary is rejected on a musl target with a hint to use a musl/static asset', async () => {
    const info = await readElfFile('/bin/ls');
    const e = expectCode(() => validateElf(info, { arch: 'amd64', libc: 'musl' }), 'libc_mismatch');
    expect(e.status).toBe(422);
    expect(e.hint).toMatch(/musl or statically linked/);
    // forced by the admin: accepted when the loader exists
    expect(validateElf(info, { arch: 'amd64', libc: 'musl' }, { allowLibcMismatch: true, interpreterExists: existsSync }).libc).toBe('glibc');
  });

  it('a real amd64 binary is wrong_architecture for arm64 and 386, naming expected vs found', async () => {
    const info = await readElfFile('/usr/bin/env');
    const e = expectCode(() => validateElf(info, { arch: 'arm64', libc: 'glibc' }), 'wrong_architecture');
    expect(e.details).toMatchObject({ expectedArch: 'arm64', foundArch: 'amd64', expected: 183, found: 62 });
    expectCode(() => validateElf(info, { arch: '386', libc: 'glibc' }), 'wrong_architecture');
  });

  const staticCandidates = ['/sbin/ldconfig', '/usr/sbin/ldconfig', '/bin/busybox', '/usr/bin/busybox'];
  const staticBin = staticCandidates.find((p) => existsSync(p) && readelfInterp(p) === null);
  it.runIf(staticBin !== undefined)(`a static(-pie) binary on this machine (${staticBin}) has no interpreter and runs on musl`, async () => {
    const info = await readElfFile(staticBin!);
    expect(info.interp).toBeNull();
    expect(info.libc).toBe('static');
    expect(info.machineName).toBe('amd64');
    expect(validateElf(info, { arch: 'amd64', libc: 'musl' }, { interpreterExists: () => false }).libc).toBe('static');
  });

  it('a shared library (entry point present or not) vs a text file', async () => {
    const libc = ['/lib/x86_64-linux-gnu/libc.so.6', '/usr/lib/x86_64-linux-gnu/libc.so.6'].find(existsSync);
    if (libc) {
      const info = await readElfFile(libc);
      expect(info.type).toBe('dyn');
      expect(info.machineName).toBe('amd64');
    }
    await expect(readElfFile('/etc/hostname').catch((e) => e)).resolves.toMatchObject({ code: 'wrong_architecture' });
    await expect(readElfFile('/')).rejects.toThrow();
  });
});

// ---- crafted headers ----------------------------------------------------------------------
