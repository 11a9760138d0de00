import { execFileSync } from 'node:child_process';
import { createReadStream, createWriteStream, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { afterAll, describe, expect, it } from 'vitest';
import type { AppError } from '@/lib/core/errors';
import {
  algorithmsNeeded,
  checkRecordedDigest,
  createMultiHasher,
  decideVerification,
  findChecksumSources,
  hashFile,
  parseApiDigest,
  parseChecksumFile,
  stripArchiveSuffix,
  verifyDigest,
} from './checksums';

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (e) {
    return (e as AppError).code;
  }
  return undefined;
}

const H = (c: string, n = 64) => c.repeat(n);
const SHA_A = 'a'.repeat(64);

// Real goreleaser output (cli/cli v2.40.0 checksums file layout).
const GH_CHECKSUMS = [
  '1f9d4bdc7d5b2f4e0a3c2b1f6a8d9e0c7b5a4f3e2d1c0b9a8f7e6d5c4b3a2f10  gh_2.40.0_checksums.txt.sig',
  '3a8fd8f5e1f0f5b6a6a8e6c0b5f8c1e7b0a2d6f4c3e5d7b9a1c3e5f7a9b1d3e5  gh_2.40.0_linux_386.tar.gz',
  '8b7fa9e6d1c2f4a6b8d0e2f4a6c8e0b2d4f6a8c0e2b4d6f8a0c2e4b6d8f0a2c4  gh_2.40.0_linux_amd64.deb',
  'e31a5c2a7b2e2c1a0e8f0d5b8e5f7c2f0b8a0d9e6c4b2a0f8e6d4c2b0a9e8d7c  gh_2.40.0_linux_amd64.tar.gz',
  'c0ffee00c0ffee00c0ffee00c0ffee00c0ffee00c0ffee00c0ffee00c0ffee00  gh_2.40.0_linux_arm64.tar.gz',
  '',
].join('\n');

describe('findChecksumSources (source order)', () => {
  const asset = { name: 'gh_2.40.0_linux_amd64.tar.gz', digest: 'sha256:' + SHA_A, state: 'uploaded', size: 11_000_000 };
  it('API digest, sidecars (full then stripped name), exact global names, suffixes, "checksum" names', () => {
    const assets = [
      { name: 'gh_2.40.0_linux_arm64.tar.gz', size: 10 },
      { name: 'release-checksums.txt', size: 500 },
      { name: 'gh_2.40.0_checksums.txt', size: 500 },
      { name: 'gh_2.40.0_checksums.txt.sig', size: 500 },
      { name: 'gh_2.40.0_checksums.txt.pem', size: 500 },
      { name: 'SHA256SUMS', size: 500 },
      { name: 'Checksums.TXT', size: 500 },
      { name: 'gh_2.40.0_linux_amd64.md5', size: 50 },
      { name: 'gh_2.40.0_linux_amd64.tar.gz.sha512', size: 200 },
      { name: 'gh_2.40.0_linux_amd64.tar.gz.sha256', size: 100 },
      { name: 'gh_2.40.0_linux_arm64.tar.gz.sha256', size: 100 },
      { name: 'checksum-manifest.yaml', size: 100 },
      { name: 'all.sha256sums', size: 100 },
      { name: 'huge-checksums.txt', size: 50 * 1024 * 1024 },
      { name: 'SHASUMS256.txt', size: 100, state: 'starter' },
      asset,
    ];
    const s = findChecksumSources(asset.name, assets);
    expect(s.map((x) => [x.kind, x.asset?.name, x.algorithm])).toEqual([
      ['api_digest', 'gh_2.40.0_linux_amd64.tar.gz', 'sha256'],
      ['sidecar', 'gh_2.40.0_linux_amd64.tar.gz.sha256', 'sha256'],
      ['sidecar', 'gh_2.40.0_linux_amd64.tar.gz.sha512', 'sha512'],
      ['sidecar', 'gh_2.40.0_linux_amd64.md5', 'md5'],
      ['checksums_file', 'Checksums.TXT', undefined],
      ['checksums_file', 'SHA256SUMS', 'sha256'],
      ['checksums_file', 'gh_2.40.0_checksums.txt', undefined],
      ['checksums_file', 'release-checksums.txt', undefined],
      ['checksums_file', 'all.sha256sums', 'sha256'],
      ['checksums_file', 'checksum-manifest.yaml', undefined],
    ]);
    expect(s[0].expected).toEqual({ algorithm: 'sha256', hex: SHA_A });
  });

  it('no digest and nothing else → empty (TOFU decision is the caller’s)', () => {
    expect(findChecksumSources('rg.tar.gz', [{ name: 'rg.tar.gz', digest: null }, { name: 'rg.deb' }])).toEqual([]);
  });

  it('stripArchiveSuffix', () => {
    expect(stripArchiveSuffix('tool_linux_amd64.tar.gz')).toBe('tool_linux_amd64');
    expect(stripArchiveSuffix('tool.zip')).toBe('tool');
    expect(stripArchiveSuffix('tool-x86_64.AppImage')).toBe('tool-x86_64.AppImage');
  });
});

describe('parseApiDigest', () => {
  it('parses and rejects', () => {
    expect(parseApiDigest('sha256:' + 'AB'.repeat(32))).toEqual({ algorithm: 'sha256', hex: 'ab'.repeat(32) });
    expect(parseApiDigest(null)).toBeNull();
    expect(parseApiDigest(undefined)).toBeNull();
    expect(codeOf(() => parseApiDigest('sha256:abc'))).toBe('upstream_error');
    expect(codeOf(() => parseApiDigest('md5:' + 'a'.repeat(32)))).toBe('upstream_error');
    expect(codeOf(() => parseApiDigest('sha256:' + 'g'.repeat(64)))).toBe('upstream_error');
  });
});

describe('parseChecksumFile', () => {
  it('goreleaser checksums.txt: picks our line, never the first', () => {
    expect(parseChecksumFile(GH_CHECKSUMS, 'gh_2.40.0_linux_amd64.tar.gz')).toEqual({
      algorithm: 'sha256',
      hex: 'e31a5c2a7b2e2c1a0e8f0d5b8e5f7c2f0b8a0d9e6c4b2a0f8e6d4c2b0a9e8d7c',
      name: 'gh_2.40.0_linux_amd64.tar.gz',
    });
  });

  it('missing entry → checksum_missing_entry listing what the file has', () => {
    try {
      parseChecksumFile(GH_CHECKSUMS, 'gh_2.40.0_linux_armv6.tar.gz');
      throw new Error('no throw');
    } catch (e) {
      const err = e as AppError;
      expect(err.code).toBe('checksum_missing_entry');
      expect(err.status).toBe(422);
      expect(err.details?.listed).toContain('gh_2.40.0_linux_amd64.tar.gz');
    }
  });

  it('SHA256SUMS with binary markers, ./ prefixes, paths and CRLF', () => {
    const text = [
      `${H('1')} *./dist/tool-1.0-linux-amd64.tar.gz`,
      `${H('2')} *tool-1.0-linux-arm64.tar.gz`,
      `${H('3')}  ./tool-1.0-darwin-amd64.tar.gz`,
      `${H('4')}\ttool-1.0-windows-amd64.zip`,
      '',
    ].join('\r\n');
    expect(parseChecksumFile(text, 'tool-1.0-linux-amd64.tar.gz').hex).toBe(H('1'));
    expect(parseChecksumFile(text, 'tool-1.0-linux-arm64.tar.gz').hex).toBe(H('2'));
    expect(parseChecksumFile(text, 'tool-1.0-darwin-amd64.tar.gz').hex).toBe(H('3'));
    expect(parseChecksumFile(Buffer.from(text), 'tool-1.0-windows-amd64.zip').hex).toBe(H('4'));
  });

  it('single-token sidecar, with and without trailing newline/CRLF; upper-case hex', () => {
    expect(parseChecksumFile(H('A') + '\r\n', 'anything.tar.gz')).toEqual({ algorithm: 'sha256', hex: H('a') });
    expect(parseChecksumFile(H('b', 128), 'x')).toEqual({ algorithm: 'sha512', hex: H('b', 128) });
    expect(parseChecksumFile('sha256:' + H('c'), 'x').hex).toBe(H('c'));
  });

  it('sidecar with one line naming the stripped asset name is accepted only as a sidecar', () => {
    const text = `${H('d')}  tool_linux_amd64\n`;
    expect(parseChecksumFile(text, 'tool_linux_amd64.tar.gz', { sidecar: true }).hex).toBe(H('d'));
    expect(codeOf(() => parseChecksumFile(text, 'tool_linux_amd64.tar.gz'))).toBe('checksum_missing_entry');
  });

  it('hex length decides the algorithm; malformed hex is rejected', () => {
    expect(parseChecksumFile(`${H('e', 32)}  a.zip\n${H('f')}  b.zip\n`, 'a.zip').algorithm).toBe('md5');
    expect(parseChecksumFile(`${H('e', 40)}  a.zip\n`, 'a.zip').algorithm).toBe('sha1');
    expect(codeOf(() => parseChecksumFile(`${H('e', 63)}  a.zip\n${H('f')}  b.zip\n`, 'a.zip'))).toBe('checksum_missing_entry');
    expect(codeOf(() => parseChecksumFile(`${'z'.repeat(64)}  a.zip\n`, 'a.zip'))).toBe('checksum_missing_entry');
    expect(codeOf(() => parseChecksumFile(H('a', 50), 'a.zip'))).toBe('checksum_missing_entry');
    expect(codeOf(() => parseChecksumFile(H('a', 32), 'a.zip', { algorithm: 'sha256' }))).toBe('checksum_missing_entry');
  });

  it('BSD tag format, comments, escaped names, conflicting duplicates, empty and huge files', () => {
    expect(parseChecksumFile(`# generated\nSHA256 (a.zip) = ${H('1')}\nSHA256 (b.zip) = ${H('2')}\n`, 'b.zip').hex).toBe(H('2'));
    expect(parseChecksumFile(`\\${H('3')}  dir/a.zip\n${H('4')}  b.zip\n`, 'a.zip').hex).toBe(H('3'));
    expect(parseChecksumFile(`${H('5')}  a.zip\n${H('5')}  ./a.zip\n`, 'a.zip').hex).toBe(H('5'));
    expect(codeOf(() => parseChecksumFile(`${H('5')}  a.zip\n${H('6')}  sub/a.zip\n`, 'a.zip'))).toBe('checksum_missing_entry');
    expect(codeOf(() => parseChecksumFile('  \r\n', 'a.zip'))).toBe('checksum_missing_entry');
    expect(codeOf(() => parseChecksumFile('x'.repeat(1024 * 1024 + 1), 'a.zip'))).toBe('upstream_too_large');
  });

  it('case-insensitive fallback on the name', () => {
    expect(parseChecksumFile(`${H('7')}  Tool-Linux.tar.gz\n${H('8')}  other\n`, 'tool-linux.tar.gz').hex).toBe(H('7'));
  });
});

describe('hashing and verification', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'cks-test-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const file = path.join(dir, 'tool_linux_amd64.tar.gz');
  writeFileSync(file, Buffer.concat([Buffer.from([0x1f, 0x8b, 8, 0]), Buffer.alloc(300_000, 0x5a), Buffer.from('end')]));
  const tool = (bin: string) => {
    try {
      return execFileSync(bin, [file], { encoding: 'utf8' }).split(/\s+/)[0];
    } catch {
      return undefined;
    }
  };

  it('hashFile matches the real sha256sum / sha512sum / md5sum binaries', async () => {
    const d = await hashFile(file, ['sha512', 'md5']);
    const ref = tool('sha256sum');
    expect(ref).toMatch(/^[0-9a-f]{64}$/);
    expect(d.sha256).toBe(ref);
    const ref512 = tool('sha512sum');
    if (ref512) expect(d.sha512).toBe(ref512);
    const refMd5 = tool('md5sum');
    if (refMd5) expect(d.md5).toBe(refMd5);
    expect(d.bytes).toBe(300_007);
  });

  it('the sha256sum output file verifies through parse → verify; a tampered file fails with both hashes named', async () => {
    const sumsText = execFileSync('sha256sum', ['--binary', path.basename(file)], { cwd: dir, encoding: 'utf8' });
    expect(sumsText).toContain(' *tool_linux_amd64.tar.gz');
    const expected = parseChecksumFile(sumsText, 'tool_linux_amd64.tar.gz');
    // hash while "downloading" (stream copy through the transform)
    const h = createMultiHasher(algorithmsNeeded([{ algorithm: 'sha256' }, { algorithm: 'md5' }]));
    await pipeline(createReadStream(file), h.transform(), createWriteStream(path.join(dir, 'copy')));
    const actual = h.digests();
    expect(Object.keys(actual).sort()).toEqual(['md5', 'sha256']);
    expect(() => verifyDigest(expected, actual, { assetName: 'tool_linux_amd64.tar.gz', source: 'checksums_file' })).not.toThrow();
    expect(() => verifyDigest(expected, { algorithm: 'sha256', hex: actual.sha256.toUpperCase() })).not.toThrow();

    writeFileSync(path.join(dir, 'copy'), 'tampered');
    const bad = await hashFile(path.join(dir, 'copy'));
    try {
      verifyDigest(expected, bad, { assetName: 'tool_linux_amd64.tar.gz', source: 'checksums_file' });
      throw new Error('no throw');
    } catch (e) {
      const err = e as AppError;
      expect(err.code).toBe('checksum_mismatch');
      expect(err.message).toContain(expected.hex);
      expect(err.message).toContain(bad.sha256);
      expect(err.details).toMatchObject({ expected: `sha256:${expected.hex}`, actual: `sha256:${bad.sha256}` });
    }
  });

  it('verifyDigest: missing algorithm, wrong lengths, non-hex never pass', () => {
    expect(codeOf(() => verifyDigest({ algorithm: 'sha512', hex: H('a', 128) }, { sha256: SHA_A }))).toBe('checksum_mismatch');
    expect(codeOf(() => verifyDigest({ algorithm: 'sha256', hex: SHA_A }, { algorithm: 'md5', hex: H('a', 32) }))).toBe('checksum_mismatch');
    expect(codeOf(() => verifyDigest({ algorithm: 'sha256', hex: SHA_A }, { algorithm: 'sha256', hex: SHA_A.slice(2) }))).toBe('checksum_mismatch');
    expect(codeOf(() => verifyDigest({ algorithm: 'sha256', hex: 'zz' + SHA_A.slice(2) }, { algorithm: 'sha256', hex: 'zz' + SHA_A.slice(2) }))).toBe(
      'checksum_mismatch',
    );
    expect(codeOf(() => verifyDigest({ algorithm: 'sha256', hex: SHA_A }, { algorithm: 'sha256', hex: SHA_A }))).toBeUndefined();
  });

  it('createMultiHasher always includes sha256 and refuses updates after digests()', () => {
    const h = createMultiHasher([]);
    h.update(Buffer.from('abc'));
    expect(h.digests()).toEqual({ sha256: 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad' });
    expect(() => h.update(Buffer.from('x'))).toThrow();
    expect(h.bytes).toBe(3);
  });
});

describe('decideVerification / checkRecordedDigest', () => {
  it('verify, tofu, checksum_required', () => {
    expect(decideVerification({ sources: [{ kind: 'sidecar' }], requireChecksum: true })).toBe('verify');
    expect(decideVerification({ sources: [], requireChecksum: false })).toBe('tofu');
    try {
      decideVerification({ sources: [], requireChecksum: true, assetName: 'rg.tar.gz' });
      throw new Error('no throw');
    } catch (e) {
      expect((e as AppError).code).toBe('checksum_required');
      expect((e as AppError).status).toBe(422);
      expect((e as AppError).hint).toBeTruthy();
    }
  });

  it('digest_changed for the same tag', () => {
    const ctx = { tag: 'v1.0.0', assetName: 'a.tar.gz' };
    expect(() => checkRecordedDigest('sha256:' + SHA_A, 'sha256:' + SHA_A.toUpperCase(), ctx)).not.toThrow();
    expect(() => checkRecordedDigest(null, 'sha256:' + SHA_A, ctx)).not.toThrow();
    expect(codeOf(() => checkRecordedDigest('sha256:' + SHA_A, { algorithm: 'sha256', hex: H('b') }, ctx))).toBe('digest_changed');
  });
});
