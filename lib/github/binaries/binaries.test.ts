import { closeSync, openSync, readSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { AppError } from '@/lib/core/errors';
import { type ArchiveEntry, canonicalName, chooseBinaries, compileGlob, globMatch, normalizeArchivePath } from './binaries';

/** First 64 bytes of a real ELF executable on this machine (node itself). */
function realElfHead(): Buffer {
  const fd = openSync(process.execPath, 'r');
  const b = Buffer.alloc(64);
  readSync(fd, b, 0, 64, 0);
  closeSync(fd);
  return b;
}
const ELF = realElfHead();
const SH = Buffer.from('#!/bin/sh\nset -e\n# installer\n');
const TEXT = Buffer.from('MIT License\n\nCopyright (c) ...');
const ROFF = Buffer.from('.TH GH 1 "Dec 2023" "GitHub CLI 2.40.0"\n');

const f = (path: string, head: Buffer, mode = 0o644, size = 1000): ArchiveEntry => ({ path, mode, size, type: 'file', head });
const d = (path: string): ArchiveEntry => ({ path, mode: 0o755, size: 0, type: 'dir' });
const l = (path: string, linkTarget: string, type: 'symlink' | 'hardlink' = 'symlink'): ArchiveEntry => ({ path, mode: 0o777, size: 0, type, linkTarget });

function err(fn: () => unknown): AppError {
  try {
    fn();
  } catch (e) {
    return e as AppError;
  }
  throw new Error('expected a throw');
}

describe('chooseBinaries on realistic archive listings', () => {
  it('cli/cli gh_2.40.0_linux_amd64.tar.gz → bin/gh, canonical name gh', () => {
    const entries = [
      d('gh_2.40.0_linux_amd64/'),
      f('gh_2.40.0_linux_amd64/LICENSE', TEXT),
      d('gh_2.40.0_linux_amd64/bin/'),
      f('gh_2.40.0_linux_amd64/bin/gh', ELF, 0o755, 45_000_000),
      d('gh_2.40.0_linux_amd64/share/man/man1/'),
      f('gh_2.40.0_linux_amd64/share/man/man1/gh.1', ROFF),
      f('gh_2.40.0_linux_amd64/share/man/man1/gh-pr.1', ROFF),
    ];
    // repo name "cli" has no direct match → rule 3
    const r = chooseBinaries(entries, { toolName: 'cli', os: 'linux' });
    expect(r.chosen.map((c) => [c.path, c.installName, c.kind, c.rule])).toEqual([['gh_2.40.0_linux_amd64/bin/gh', 'gh', 'elf', 'candidate']]);
    expect(r.skipped).toEqual(
      expect.arrayContaining([
        { path: 'gh_2.40.0_linux_amd64/LICENSE', reason: 'not executable' },
        { path: 'gh_2.40.0_linux_amd64/share/man/man1/gh.1', reason: 'documentation/completion directory' },
      ]),
    );
    expect(canonicalName('cli', r.chosen)).toBe('gh');
    // binaryName override "gh" → direct match
    expect(chooseBinaries(entries, { toolName: 'gh', os: 'linux' }).chosen.map((c) => c.rule)).toEqual(['direct']);
  });

  it('BurntSushi/ripgrep musl tarball → rg; completions and docs skipped', () => {
    const p = 'ripgrep-14.1.0-x86_64-unknown-linux-musl';
    const entries = [
      d(`${p}/`),
      f(`${p}/rg`, ELF, 0o755, 5_000_000),
      f(`${p}/COPYING`, TEXT),
      f(`${p}/README.md`, TEXT),
      f(`${p}/UNLICENSE`, TEXT),
      d(`${p}/complete/`),
      f(`${p}/complete/_rg`, Buffer.from('#compdef rg\n')),
      f(`${p}/complete/rg.bash`, Buffer.from('_rg() {\n')),
      f(`${p}/complete/rg.fish`, TEXT),
      d(`${p}/doc/`),
      f(`${p}/doc/rg.1`, ROFF),
      f(`${p}/doc/CHANGELOG.md`, TEXT),
    ];
    const r = chooseBinaries(entries, { toolName: 'ripgrep', os: 'linux' });
    expect(r.chosen.map((c) => c.path)).toEqual([`${p}/rg`]);
    expect(canonicalName('ripgrep', r.chosen)).toBe('rg');
    expect(r.skipped.find((s) => s.path === `${p}/complete/_rg`)?.reason).toBe('documentation/completion directory');
    expect(r.skipped.find((s) => s.path === `${p}/UNLICENSE`)?.reason).toBe('not executable');
  });

  it('a release with an executable install.sh and a real ELF: the script is skipped, never failing', () => {
    const entries = [f('install.sh', SH, 0o755), f('mytool-linux', ELF, 0o755), f('README.md', TEXT)];
    const r = chooseBinaries(entries, { toolName: 'other', os: 'linux' });
    expect(r.chosen.map((c) => c.path)).toEqual(['mytool-linux']);
    expect(r.skipped).toContainEqual({ path: 'install.sh', reason: 'script, not an ELF binary' });
  });

  it('only a script → no_binary listing the files; declaring it via binaryPath accepts it', () => {
    const entries = [f('install.sh', SH, 0o755), f('README.md', TEXT)];
    const e = err(() => chooseBinaries(entries, { toolName: 'x', os: 'linux' }));
    expect(e.code).toBe('no_binary');
    expect(e.status).toBe(422);
    expect(e.details?.files).toEqual(['install.sh', 'README.md']);
    expect(e.message).toContain('install.sh');
    const r = chooseBinaries(entries, { toolName: 'x', os: 'linux', binaryPath: 'install.sh' });
    expect(r.chosen.map((c) => [c.path, c.kind, c.rule])).toEqual([['install.sh', 'script', 'binary_path']]);
  });

  it('two binaries (e.g. a server and its CLI) are both installed; canonical name stays the repo name', () => {
    const entries = [f('dist/minio', ELF, 0o755), f('dist/mc', ELF, 0o755), f('dist/LICENSE', TEXT)];
    const r = chooseBinaries(entries, { toolName: 'toolkit', os: 'linux' });
    expect(r.chosen.map((c) => c.installName)).toEqual(['minio', 'mc']);
    expect(canonicalName('toolkit', r.chosen)).toBe('toolkit');
  });

  it('direct match wins over other candidates, case-insensitively, incl. .AppImage', () => {
    const entries = [f('pkg/Tool', ELF, 0o755), f('pkg/tool-helper', ELF, 0o755)];
    expect(chooseBinaries(entries, { toolName: 'tool', os: 'linux' }).chosen.map((c) => c.path)).toEqual(['pkg/Tool']);
    const app = chooseBinaries([f('Tool-x86_64.AppImage', ELF, 0o755), f('tool.AppImage', ELF, 0o755)], { toolName: 'tool', os: 'linux' });
    expect(app.chosen.map((c) => c.installName)).toEqual(['tool.AppImage']);
    expect(canonicalName('tool', app.chosen)).toBe('tool');
  });

  it('a direct-match name inside completions/ is not a binary; a non-ELF direct match falls through to rule 3', () => {
    const entries = [f('completions/bash/tool', Buffer.from('complete -F _tool tool\n')), f('bin/tool', SH, 0o755), f('bin/tool-bin', ELF, 0o755)];
    const r = chooseBinaries(entries, { toolName: 'tool', os: 'linux' });
    expect(r.chosen.map((c) => c.path)).toEqual(['bin/tool-bin']);
    expect(r.skipped).toContainEqual({ path: 'bin/tool', reason: 'script, not an ELF binary' });
  });

  it('ELF without +x but with no extension is a candidate; shared libraries are not', () => {
    const r = chooseBinaries([f('tool', ELF, 0o644), f('lib/libtool.so.1', ELF, 0o755), f('data.bin', ELF, 0o644)], { toolName: 'x', os: 'linux' });
    expect(r.chosen.map((c) => c.path)).toEqual(['tool']);
  });

  it('entries without a head are candidates of unknown kind (the caller validates them)', () => {
    const entries: ArchiveEntry[] = [{ path: 'tool', mode: 0o755, size: 10, type: 'file' }];
    expect(chooseBinaries(entries, { toolName: 'x', os: 'linux' }).chosen[0].kind).toBe('unknown');
  });

  it('Windows-style listing for os=windows picks tool.exe', () => {
    const r = chooseBinaries([f('tool.exe', Buffer.from('MZ\x90\x00'), 0o644), f('README.txt', TEXT)], { toolName: 'tool', os: 'windows' });
    expect(r.chosen.map((c) => c.installName)).toEqual(['tool.exe']);
  });
});

describe('links inside the archive', () => {
  it('a symlink to the binary is resolved to the regular file and installed under the link name', () => {
    const entries = [f('tool-1.2.3/bin/tool-v1.2.3', ELF, 0o755), l('tool-1.2.3/bin/tool', 'tool-v1.2.3')];
    const r = chooseBinaries(entries, { toolName: 'tool', os: 'linux' });
    expect(r.chosen).toHaveLength(1);
    expect(r.chosen[0]).toMatchObject({ path: 'tool-1.2.3/bin/tool-v1.2.3', type: 'file', installName: 'tool', linkPath: 'tool-1.2.3/bin/tool', kind: 'elf' });
  });

  it('rule 3: a link and its target are one binary (the shorter name is kept)', () => {
    const entries = [f('x/tool-v1.2.3', ELF, 0o755), l('x/tool', './tool-v1.2.3')];
    const r = chooseBinaries(entries, { toolName: 'other', os: 'linux' });
    expect(r.chosen.map((c) => c.installName)).toEqual(['tool']);
    expect(r.skipped).toContainEqual({ path: 'x/tool-v1.2.3', reason: 'same file as x/tool' });
  });

  it('relative ../ links within the archive and hardlinks (root-relative) resolve', () => {
    const entries = [f('pkg/libexec/real', ELF, 0o755), l('pkg/bin/tool', '../libexec/real'), l('pkg/bin/tool2', 'pkg/libexec/real', 'hardlink')];
    const r = chooseBinaries(entries, { toolName: 'tool', os: 'linux' });
    expect(r.chosen.map((c) => [c.installName, c.path])).toEqual([['tool', 'pkg/libexec/real']]);
  });

  it('a symlink escaping the archive is rejected (skipped, and no_binary when it was the only one)', () => {
    for (const target of ['../../../usr/bin/tool', '/usr/bin/tool', '../tool']) {
      const entries = [l('tool', target), f('README.md', TEXT)];
      const e = err(() => chooseBinaries(entries, { toolName: 'tool', os: 'linux' }));
      expect(e.code).toBe('no_binary');
      expect(e.details?.skipped).toContainEqual({ path: 'tool', reason: expect.stringContaining('outside the archive') });
    }
    const ok = chooseBinaries([l('tool', '/etc/passwd'), f('bin/tool-linux', ELF, 0o755)], { toolName: 'tool', os: 'linux' });
    expect(ok.chosen.map((c) => c.path)).toEqual(['bin/tool-linux']);
    expect(ok.skipped).toContainEqual({ path: 'tool', reason: 'link points outside the archive (/etc/passwd)' });
  });

  it('link loops, dangling links and links to directories are rejected cleanly', () => {
    const r = chooseBinaries([l('a', 'b'), l('b', 'a'), l('c', 'missing'), d('dir'), l('tool', 'dir'), f('real', ELF, 0o755)], {
      toolName: 'tool',
      os: 'linux',
    });
    expect(r.chosen.map((c) => c.path)).toEqual(['real']);
    const reasons = Object.fromEntries(r.skipped.map((s) => [s.path, s.reason]));
    expect(reasons.a).toMatch(/too many link hops/);
    expect(reasons.c).toMatch(/not in the archive/);
    expect(reasons.tool).toMatch(/directory/);
  });
});

describe('binaryPath globs', () => {
  const entries = [f('tool_1.0_linux_amd64/bin/tool', ELF, 0o755), f('tool_1.0_linux_amd64/bin/toolctl', ELF, 0o755), f('tool_1.0_linux_amd64/README', TEXT)];

  it('path globs, basename globs, ** and ?', () => {
    expect(chooseBinaries(entries, { toolName: 'x', os: 'linux', binaryPath: '*/bin/tool' }).chosen.map((c) => c.installName)).toEqual(['tool']);
    expect(chooseBinaries(entries, { toolName: 'x', os: 'linux', binaryPath: 'tool*' }).chosen.map((c) => c.installName)).toEqual(['tool', 'toolctl']);
    expect(chooseBinaries(entries, { toolName: 'x', os: 'linux', binaryPath: '**/toolct?' }).chosen.map((c) => c.installName)).toEqual(['toolctl']);
  });

  it('no match → no_binary; unsafe globs → invalid_spec', () => {
    expect(err(() => chooseBinaries(entries, { toolName: 'x', os: 'linux', binaryPath: 'bin/tool' })).code).toBe('no_binary');
    expect(err(() => chooseBinaries(entries, { toolName: 'x', os: 'linux', binaryPath: '../etc/*' })).code).toBe('invalid_spec');
    expect(err(() => chooseBinaries(entries, { toolName: 'x', os: 'linux', binaryPath: '/bin/*' })).code).toBe('invalid_spec');
    expect(err(() => chooseBinaries(entries, { toolName: 'x', os: 'linux', binaryPath: 'a'.repeat(600) })).code).toBe('invalid_spec');
  });

  it('globs are literal except * ** ?, and have no catastrophic backtracking', () => {
    expect(globMatch('a.b+(c)[x]', 'a.b+(c)[x]')).toBe(true);
    expect(globMatch('a.b', 'axb')).toBe(false);
    expect(globMatch('**/bin/*', 'bin/x')).toBe(true);
    expect(globMatch('**/bin/*', 'a/b/bin/x')).toBe(true);
    expect(globMatch('a/**', 'a/b/c')).toBe(true);
    expect(globMatch('*', 'a/b')).toBe(false);
    expect(globMatch('t?ol', 'tool')).toBe(true);
    expect(globMatch('t?ol', 't/ol')).toBe(false);
    expect(globMatch('*-linux-*', 'tool-linux-amd64')).toBe(true);
    const t = Date.now();
    expect(globMatch('*a*a*a*a*a*a*a*a*a*b', 'a'.repeat(5000))).toBe(false);
    const deep = compileGlob('**/**/**/**/**/**/**/**/x');
    expect(deep(Array.from({ length: 200 }, () => 'a').join('/') + '/y')).toBe(false);
    expect(Date.now() - t).toBeLessThan(1000);
  });
});

describe('helpers', () => {
  it('normalizeArchivePath', () => {
    expect(normalizeArchivePath('./a//b/')).toBe('a/b');
    expect(normalizeArchivePath('a/../b')).toBeNull();
    expect(normalizeArchivePath('/etc/passwd')).toBeNull();
    expect(normalizeArchivePath('C:/x')).toBeNull();
    expect(normalizeArchivePath('a\0b')).toBeNull();
  });

  it('unsafe entries in the listing are skipped, not chosen', () => {
    const r = chooseBinaries([f('../tool', ELF, 0o755), f('tool', ELF, 0o755)], { toolName: 'tool', os: 'linux' });
    expect(r.chosen.map((c) => c.path)).toEqual(['tool']);
    expect(r.skipped).toContainEqual({ path: '../tool', reason: 'unsafe path' });
  });

  it('same install name twice → the shallowest wins, the other is skipped', () => {
    const r = chooseBinaries([f('a/b/tool', ELF, 0o755), f('a/tool', ELF, 0o755)], { toolName: 'tool', os: 'linux' });
    expect(r.chosen.map((c) => c.path)).toEqual(['a/tool']);
    expect(r.skipped).toContainEqual({ path: 'a/b/tool', reason: 'same name as a/tool' });
  });

  it('canonicalName', () => {
    expect(canonicalName('cli', [{ installName: 'gh' }])).toBe('gh');
    expect(canonicalName('ripgrep', [{ installName: 'rg' }])).toBe('rg');
    expect(canonicalName('fd', [{ installName: 'FD' }])).toBe('fd');
    expect(canonicalName('tool', [{ installName: 'tool.exe' }])).toBe('tool');
    expect(canonicalName('tool', [])).toBe('tool');
    expect(canonicalName('tool', [{ installName: 'a' }, { installName: 'b' }])).toBe('tool');
  });
});
