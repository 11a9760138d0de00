import { describe, expect, it } from 'vitest';
import { parsePackageSpec } from '../../runtime/spec';
import { githubReleaseSpec, parseSkillMd } from './index';

/** Install specs as single-line JSON flow maps; SKILL.md line 7 holds the first one. */
const withSpecs = (...specs: object[]) =>
  `---\nname: s\ndescription: d\nmetadata:\n  openclaw:\n    install:\n${specs.map((s) => `      - ${JSON.stringify(s)}\n`).join('')}---\n`;
const parse = (...specs: object[]) => parseSkillMd(withSpecs(...specs), { dirName: 's' });

/** The reason an invalid spec was dropped (asserting it was dropped, as a warning, on its line). */
function dropReason(spec: object): string {
  const p = parse(spec);
  expect(p.manifest.install).toEqual([]);
  expect(p.valid).toBe(true);
  const dropped = p.diagnostics.filter((d) => d.code === 'install.dropped');
  expect(dropped).toHaveLength(1);
  expect(dropped[0]).toMatchObject({ severity: 'warning', line: 7, file: 'SKILL.md' });
  return dropped[0].message;
}

describe('valid install specs of every kind and their package specs', () => {
  it('brew (formula or cask) has no package spec', () => {
    const p = parse(
      { id: 'b', kind: 'brew', formula: 'steipete/tap/sag', bins: ['sag'], label: 'Install sag', os: ['darwin', 'linux'] },
      { kind: 'brew', cask: 'font-fira@2+x.y_z' },
    );
    expect(p.diagnostics).toEqual([]);
    expect(p.manifest.install).toEqual([
      { id: 'b', kind: 'brew', formula: 'steipete/tap/sag', bins: ['sag'], label: 'Install sag', os: ['darwin', 'linux'] },
      { kind: 'brew', formula: 'font-fira@2+x.y_z', bins: [] },
    ]);
  });

  it('node maps to npm:, uv to pip:, go to none; "type" is read like "kind"', () => {
    const p = parse(
      { kind: 'node', package: '@scope/cli@^1.2.0', bins: ['cli'] },
      { type: 'uv', package: 'nano-pdf[cli]>=0.2,<1', bins: ['nano-pdf'] },
      { kind: 'GO', module: 'github.com/owner/tool/cmd/tool@v1.2.3' },
    );
    expect(p.diagnostics).toEqual([]);
    expect(p.manifest.install).toEqual([
      { kind: 'node', package: '@scope/cli@^1.2.0', bins: ['cli'], packageSpec: 'npm:@scope/cli@^1.2.0' },
      { kind: 'uv', package: 'nano-pdf[cli]>=0.2,<1', bins: ['nano-pdf'], packageSpec: 'pip:nano-pdf[cli]>=0.2,<1' },
      { kind: 'go', module: 'github.com/owner/tool/cmd/tool@v1.2.3', bins: [] },
    ]);
    for (const spec of p.manifest.install) if (spec.packageSpec) expect(() => parsePackageSpec(spec.packageSpec!)).not.toThrow();
  });

  it('download keeps its options; GitHub release URLs map to github:owner/repo[@tag]', () => {
    const sha = 'AB'.repeat(32);
    const p = parse(
      {
        kind: 'download',
        url: 'https://github.com/cli/cli/releases/download/v2.40.0/gh_2.40.0_linux_amd64.tar.gz',
        sha256: sha,
        archive: 'tar.gz',
        extract: true,
        stripComponents: 1,
        targetDir: 'gh/bin',
      },
      { kind: 'download', url: 'https://github.com/BurntSushi/ripgrep/releases/latest/download/rg.zip', archive: 'zip' },
      { kind: 'download', url: 'http://downloads.example.com/tool.tar.bz2', archive: 'tar.bz2', extract: false, stripComponents: 0 },
    );
    expect(p.diagnostics).toEqual([]);
    expect(p.manifest.install).toEqual([
      {
        kind: 'download',
        url: 'https://github.com/cli/cli/releases/download/v2.40.0/gh_2.40.0_linux_amd64.tar.gz',
        sha256: 'ab'.repeat(32),
        archive: 'tar.gz',
        extract: true,
        stripComponents: 1,
        targetDir: 'gh/bin',
        bins: [],
        packageSpec: 'github:cli/cli@v2.40.0',
      },
      {
        kind: 'download',
        url: 'https://github.com/BurntSushi/ripgrep/releases/latest/download/rg.zip',
        archive: 'zip',
        bins: [],
        packageSpec: 'github:BurntSushi/ripgrep',
      },
      { kind: 'download', url: 'http://downloads.example.com/tool.tar.bz2', archive: 'tar.bz2', extract: false, stripComponents: 0, bins: [] },
    ]);
  });

  it('githubReleaseSpec maps only https GitHub release assets', () => {
    expect(githubReleaseSpec('https://github.com/o/r/releases/download/v%2B1/a.tgz')).toBe('github:o/r@v+1');
    expect(githubReleaseSpec('https://github.com/o/r/archive/refs/tags/v1.tar.gz')).toBeUndefined();
    expect(githubReleaseSpec('http://github.com/o/r/releases/download/v1/a')).toBeUndefined();
    expect(githubReleaseSpec('https://github.com.evil.example/o/r/releases/download/v1/a')).toBeUndefined();
    expect(githubReleaseSpec('https://github.com/o/r/releases/download/v1')).toBeUndefined();
  });

  it('a mapping that our spec grammar refuses keeps the installer, with a warning', () => {
    const uv = parse({ kind: 'uv', package: 'pkg~=1' });
    expect(uv.manifest.install).toEqual([{ kind: 'uv', package: 'pkg~=1', bins: [] }]);
    expect(uv.diagnostics).toEqual([expect.objectContaining({ code: 'install.unmapped', severity: 'warning', line: 7 })]);
    expect(uv.diagnostics[0].message).toContain('"pip:pkg~=1"');
    const gh = parse({ kind: 'download', url: 'https://github.com/my_org/repo/releases/download/v1/a.zip' });
    expect(gh.manifest.install[0].packageSpec).toBeUndefined();
    expect(gh.diagnostics.map((d) => d.code)).toEqual(['install.unmapped']);
  });
});

describe('invalid install specs are dropped with the reason', () => {
  it.each([
    ['brew without formula', { kind: 'brew', bins: ['x'] }, 'kind "brew" needs "formula"'],
    ['brew option-like formula', { kind: 'brew', formula: '-rf' }, 'formula "-rf" is not a Homebrew formula name'],
    ['brew formula with ..', { kind: 'brew', formula: 'a/../b' }, 'is not a Homebrew formula name'],
    ['brew formula with backslash', { kind: 'brew', formula: 'a\\b' }, 'is not a Homebrew formula name'],
    ['brew formula of another type', { kind: 'brew', formula: 5 }, '"formula" must be a string, but it is the number 5'],
    ['node without package', { kind: 'node' }, 'kind "node" needs "package"'],
    ['node git URL', { kind: 'node', package: 'git+https://github.com/a/b.git' }, 'is not an npm registry package'],
    ['node uppercase', { kind: 'node', package: 'LeftPad' }, 'uppercase'],
    ['node shell metacharacters', { kind: 'node', package: 'a;rm -rf /' }, 'is not an npm registry package'],
    ['go without module', { kind: 'go' }, 'kind "go" needs "module"'],
    ['go URL', { kind: 'go', module: 'https://github.com/a/b' }, 'is not a Go module path'],
    ['go option', { kind: 'go', module: '-x' }, 'is not a Go module path'],
    ['uv without package', { kind: 'uv' }, 'kind "uv" needs "package"'],
    ['uv editable', { kind: 'uv', package: '-e .' }, 'is not a Python package spec'],
    ['uv shell', { kind: 'uv', package: 'pkg; curl x | sh' }, 'is not a Python package spec'],
    ['download without url', { kind: 'download' }, 'kind "download" needs "url"'],
    ['download ftp', { kind: 'download', url: 'ftp://example.com/a.zip' }, 'is not an http(s) URL'],
    ['download file URL', { kind: 'download', url: 'file:///etc/passwd' }, 'is not an http(s) URL'],
    ['download bad sha256', { kind: 'download', url: 'https://e.example/a', sha256: 'abc' }, '"sha256" must be 64 hexadecimal characters'],
    ['download rar', { kind: 'download', url: 'https://e.example/a', archive: 'rar' }, '"archive" must be one of tar.gz, tar.bz2, zip'],
    ['download negative strip', { kind: 'download', url: 'https://e.example/a', stripComponents: -1 }, '"stripComponents" must be a whole number ≥ 0'],
    ['download fractional strip', { kind: 'download', url: 'https://e.example/a', stripComponents: 1.5 }, '"stripComponents" must be a whole number'],
    ['download extract string', { kind: 'download', url: 'https://e.example/a', extract: 'yes' }, '"extract" must be true or false'],
    ['download escaping targetDir', { kind: 'download', url: 'https://e.example/a', targetDir: '../../.ssh' }, '"targetDir" must be a relative folder'],
    ['download absolute targetDir', { kind: 'download', url: 'https://e.example/a', targetDir: '/usr/local/bin' }, '"targetDir" must be a relative folder'],
    ['download home targetDir', { kind: 'download', url: 'https://e.example/a', targetDir: '~/.bashrc.d' }, '"targetDir" must be a relative folder'],
    ['unknown kind', { kind: 'apt', package: 'jq' }, 'kind "apt" is not one of brew, node, go, uv, download'],
    ['no kind', { formula: 'jq' }, 'it has no "kind"'],
    ['bad bin', { kind: 'brew', formula: 'jq', bins: ['../jq'] }, 'bin "../jq" is not a program name'],
    ['bins not a list', { kind: 'brew', formula: 'jq', bins: { a: 1 } }, '"bins" must be a list of strings, but it is a mapping'],
    ['only unknown os', { kind: 'brew', formula: 'jq', os: ['windows'] }, '"os" names no known platform'],
  ])('%s', (_what, spec, reason) => {
    expect(dropReason(spec)).toContain(reason);
  });

  it('names the installer and its label, and lists every reason', () => {
    expect(dropReason({ kind: 'download', label: 'Get it', url: 'ftp://x', sha256: 'no' })).toBe(
      'installer metadata.openclaw.install[0] ("Get it") is dropped: url "ftp://x" is not an http(s) URL; "sha256" must be 64 hexadecimal characters',
    );
  });

  it('a spec that is not a mapping is dropped; an install that is not a list is an error', () => {
    expect(dropReason('brew' as unknown as object)).toContain('it is the string "brew", not a mapping');
    const p = parseSkillMd('---\nname: s\ndescription: d\nmetadata: {openclaw: {install: {kind: brew}}}\n---\n');
    expect(p.diagnostics.map((d) => `${d.severity}:${d.code}@${d.line}`)).toEqual(['error:key.type@4']);
  });

  it('keeps the valid specs next to dropped ones', () => {
    const p = parse({ kind: 'brew', formula: 'jq' }, { kind: 'brew' }, { kind: 'uv', package: 'ruff' });
    expect(p.manifest.install.map((s) => s.packageSpec ?? s.formula)).toEqual(['jq', 'pip:ruff']);
    expect(p.diagnostics.map((d) => `${d.code}@${d.line}`)).toEqual(['install.dropped@8']);
  });
});

describe('install spec warnings', () => {
  it('unknown and kind-foreign fields are ignored with a warning (with a hint for brew "tap")', () => {
    const p = parse({ kind: 'brew', formula: 'spogo', tap: 'steipete/tap', url: 'https://x.example', extra: 1 });
    expect(p.manifest.install).toEqual([{ kind: 'brew', formula: 'spogo', bins: [] }]);
    expect(p.diagnostics.map((d) => d.code)).toEqual(['install.key-unknown', 'install.key-unknown', 'install.key-unknown']);
    expect(p.diagnostics[0].message).toContain('e.g. "owner/tap/formula"');
    expect(p.diagnostics[1].message).toContain('"url" in installer metadata.openclaw.install[0] is not used by kind "brew"');
  });

  it('unknown os values are dropped with a warning; bad id/label are ignored with a warning', () => {
    const p = parse({ kind: 'brew', formula: 'jq', os: ['linux', 'plan9'], id: 7, label: ['x'] });
    expect(p.manifest.install).toEqual([{ kind: 'brew', formula: 'jq', os: ['linux'], bins: [] }]);
    expect(p.diagnostics.map((d) => d.code).sort()).toEqual(['install.field-invalid', 'install.field-invalid', 'os.unknown']);
  });

  it('a comma string of bins is read with a warning', () => {
    const p = parse({ kind: 'brew', formula: 'jq', bins: 'jq, jaq' });
    expect(p.manifest.install[0].bins).toEqual(['jq', 'jaq']);
    expect(p.diagnostics.map((d) => d.code)).toEqual(['install.field-invalid']);
  });
});
