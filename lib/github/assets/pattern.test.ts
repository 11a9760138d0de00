import { describe, expect, it } from 'vitest';
import { compileAssetPattern } from './tokens';

const LINUX_AMD64 = { os: 'linux', arch: 'amd64' } as const;

describe('compileAssetPattern without backtracking', () => {
  it('a "*?"×12 pattern against a long name is answered', () => {
    const m = compileAssetPattern('*?'.repeat(12) + 'x', LINUX_AMD64);
    expect(m.test('a'.repeat(5000))).toBe(false);
    expect(m.test('a'.repeat(5000) + 'x')).toBe(true);
    expect(m.test('a'.repeat(11) + 'x')).toBe(false);
  });

  it('placeholders and stars interleaved many times against a long name are answered', () => {
    const m = compileAssetPattern('{os}*{arch}*'.repeat(8) + '.zip', LINUX_AMD64);
    expect(m.test('linux-x86_64-'.repeat(400))).toBe(false);
    expect(m.test('linux-x86_64-'.repeat(8) + '.zip')).toBe(true);
  });

  it('globs, placeholders and literals match as before (case-insensitive)', () => {
    const m = compileAssetPattern('tool_*_{os}_{arch}.tar.gz', LINUX_AMD64);
    expect(m.test('tool_1.2.3_linux_x86_64.tar.gz')).toBe(true);
    expect(m.test('Tool_1.2.3_Linux_AMD64.tar.gz')).toBe(true);
    expect(m.test('tool_1.2.3_darwin_x86_64.tar.gz')).toBe(false);
    expect(m.test('tool_1.2.3_linux_arm64.tar.gz')).toBe(false);
    expect(compileAssetPattern('x-{os}-y', LINUX_AMD64).test('x-manylinux_2_17-y')).toBe(true);
    expect(compileAssetPattern('x-{os}2014-y', LINUX_AMD64).test('x-manylinux2014-y')).toBe(true);
    expect(compileAssetPattern('t?ol-{version}.tgz', LINUX_AMD64, 'v1.2.3').test('tool-v1.2.3.tgz')).toBe(true);
    expect(compileAssetPattern('t?ol-{version}.tgz', LINUX_AMD64, 'v1.2.3').test('tool-1.2.3.tgz')).toBe(true);
    expect(compileAssetPattern('t?ol-{version}.tgz', LINUX_AMD64, '1.2.3').test('tool-1.2.4.tgz')).toBe(false);
    expect(compileAssetPattern('t?ol-{version}.tgz', LINUX_AMD64).test('tool-14.1.0-rc.1.tgz')).toBe(true);
    expect(compileAssetPattern('a.b+(c)[x]', LINUX_AMD64).test('a.b+(c)[x]')).toBe(true);
    expect(compileAssetPattern('a.b', LINUX_AMD64).test('axb')).toBe(false);
  });
});
